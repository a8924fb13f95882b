# expect: fail memoizes the result per (work, sync, clock, repeats) so re-running a cell is instant: a second call with the same work returns the old median without measuring (no work, no sync, no clock read), and the cache keeps every work closure (and the tensors it holds) alive.
# hint: (cache|memo|lru_cache|state (kept )?between calls|between calls|second call|again|no (work|clock|sync)|not (called|measured)|stale|keeps? .*alive|memory)
import functools
import statistics
import time


@functools.lru_cache(maxsize=None)
def _median_seconds(work, sync, clock, repeats):
    work()
    sync()
    samples = []
    for _ in range(repeats):
        start = clock()
        work()
        sync()
        samples.append(clock() - start)
    return statistics.median(samples)


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    """Median seconds per call of work(), synchronizing with sync() before each clock read."""
    return _median_seconds(work, sync, clock, repeats)


answer = time_fn
