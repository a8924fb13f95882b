# expect: pass also syncs before the start clock read ("synchronizing with sync() before each clock read", the docstring)
# hint:
import statistics, time
def answer(work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()
    times = []
    for _ in range(repeats):
        sync()
        t0 = clock()
        work()
        sync()
        times.append(clock() - t0)
    return statistics.median(times)
