# expect: fail drops every sample slower than twice the fastest before taking the median: identical on quiet runs, but when several calls are slow (another program on the machine, or genuinely bimodal work) the returned "median" is of the fast subset only, lower than the median of the per-call times.
# hint: (outlier|filter|drop|discard|twice the (fastest|min)|fastest|subset|all (the )?samples|median of (all|every)|too (low|fast)|underestimat)
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    """Median seconds per call of work(), synchronizing with sync() before each clock read."""
    work()
    sync()
    samples = []
    for _ in range(repeats):
        start = clock()
        work()
        sync()
        samples.append(clock() - start)
    fastest = min(samples)
    kept = [s for s in samples if s <= 2 * fastest]  # noise from other programs
    return statistics.median(kept)


answer = time_fn
