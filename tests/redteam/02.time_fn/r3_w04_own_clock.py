# expect: fail reads time.perf_counter instead of the clock given
# hint: never called clock\(\)
import statistics, time
def answer(work, sync, clock=time.perf_counter, repeats=5):
    work(); sync()
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter(); work(); sync(); times.append(time.perf_counter() - t0)
    return statistics.median(times)
