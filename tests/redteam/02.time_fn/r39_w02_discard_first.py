# expect: fail a first call timed and its time thrown away, where the prompt warms up before any clock read
# hint: before any warm-up call.*timed is no warm-up
import statistics, time
def answer(work, sync, clock=time.perf_counter, repeats=5):
    times = []
    for _ in range(repeats + 1):
        t0 = clock(); work(); sync(); times.append(clock() - t0)
    return statistics.median(times[1:])
