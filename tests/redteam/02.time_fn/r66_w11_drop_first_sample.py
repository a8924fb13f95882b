# expect: fail drops the first measurement as a second warm-up: the median of repeats-1 times, not of all repeats
# hint: discard|drop|first (sample|measurement|time)|all (the )?(times|samples|measurements)|repeats|median|number of
# Wrong: the warm-up is step 1; step 3 takes the median of the `repeats` per-call times. Dropping
# one changes an odd count to even (the mean of two middle times) and wastes a measurement.
import statistics
import time


def answer(work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()
    times = []
    for _ in range(repeats):
        t0 = clock()
        work()
        sync()
        times.append(clock() - t0)
    kept = times[1:] if len(times) > 1 else times  # the first one may still be cold
    return statistics.median(kept)
