# expect: fail no warm-up call
# hint: warm-up
import statistics, time
def answer(work, sync, clock=time.perf_counter, repeats=5):
    times = []
    for _ in range(repeats):
        t0 = clock(); work(); sync(); times.append(clock() - t0)
    return statistics.median(times)
