# expect: fail clock=None replaced by time.perf_counter inside: the prompt's signature spells the default
# hint: default None.*not None replaced inside
import statistics, time
def answer(work, sync, clock=None, repeats=5):
    clock = clock or time.perf_counter
    work(); sync()
    times = []
    for _ in range(repeats):
        t0 = clock(); work(); sync(); t1 = clock()
        times.append(t1 - t0)
    return statistics.median(times)
