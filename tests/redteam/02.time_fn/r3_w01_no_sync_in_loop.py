# expect: fail no sync between work() and the closing clock read
# hint: no sync\(\) in between
import statistics, time
def answer(work, sync, clock=time.perf_counter, repeats=5):
    work(); sync()
    times = []
    for _ in range(repeats):
        t0 = clock(); work(); times.append(clock() - t0)
    return statistics.median(times)
