# expect: fail two work() calls per measurement, halved
# hint: repeats|2 times between two clock reads
import statistics, time
def answer(work, sync, clock=time.perf_counter, repeats=5):
    work(); sync()
    times = []
    for _ in range(repeats):
        t0 = clock(); work(); work(); sync(); times.append((clock() - t0) / 2)
    return statistics.median(times)
