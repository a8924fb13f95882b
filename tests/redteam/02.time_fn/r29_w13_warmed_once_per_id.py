# expect: fail skips the warm-up for a work() it has seen before, remembered by id(work) in a module-level set: ids of garbage-collected lambdas are reused, so a NEW work (a fresh lambda in the next call) can go unwarmed and its first, one-off-cost call is timed; the set also grows forever.
# hint: (warm.?up|first call|one.?off|state (kept )?between calls|between calls|remember|cache|id\(|second call|again|global|module.?level)
import statistics
import time

_warmed = set()  # work functions already warmed up


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    """Median seconds per call of work(), synchronizing with sync() before each clock read."""
    if id(work) not in _warmed:
        work()
        sync()
        _warmed.add(id(work))
    samples = []
    for _ in range(repeats):
        start = clock()
        work()
        sync()
        samples.append(clock() - start)
    return statistics.median(samples)


answer = time_fn
