# expect: fail ignores repeats (always 5)
# hint: repeats
import statistics, time
def answer(work, sync, clock=time.perf_counter, repeats=5):
    work(); sync()
    times = []
    for _ in range(5):
        t0 = clock(); work(); sync(); times.append(clock() - t0)
    return statistics.median(times)
