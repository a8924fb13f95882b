# expect: fail one clock read per measurement (end of one is the start of the next): the prompt says "read clock(), call work(), call sync(), read clock() again" each time; measures the same thing plus loop overhead
# hint: clock
# open: one clock read ends a measurement and starts the next: it times the same calls, plus the loop's own overhead, which the checker's clock does not tell apart
import statistics, time
def answer(work, sync, clock=time.perf_counter, repeats=5):
    work(); sync()
    times = []
    t0 = clock()
    for _ in range(repeats):
        work(); sync()
        t1 = clock()
        times.append(t1 - t0)
        t0 = t1
    return statistics.median(times)
