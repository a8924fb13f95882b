# expect: pass mean of statistics.median_low and median_high (equal to statistics.median)
# hint:
import statistics, time
def answer(work, sync, clock=time.perf_counter, repeats=5):
    work(); sync()
    d = []
    while len(d) < repeats:
        t0 = clock(); work(); sync(); d.append(clock() - t0)
    return (statistics.median_low(d) + statistics.median_high(d)) / 2
