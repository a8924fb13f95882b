# expect: fail calls work() twice per measurement (times two calls)
# hint: work|twice|once|per call
import statistics, time
def answer(work, sync, clock=time.perf_counter, repeats=5):
    work(); sync()
    times = []
    for _ in range(repeats):
        t0 = clock(); work(); work(); sync(); times.append(clock() - t0)
    return statistics.median(times)
