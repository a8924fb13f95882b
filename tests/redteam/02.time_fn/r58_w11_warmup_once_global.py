# expect: fail warms up only on the first call of time_fn in the process (a global flag), so later calls on new work are not warmed up
# hint: warm.?up|every call|cache|state|global|first|once
import statistics
import time

_warmed_up = False


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    """Median seconds per call of work(), synchronizing with sync() before each clock read."""
    global _warmed_up
    if not _warmed_up:  # one-off costs (context, handles) are paid once per process
        work()
        sync()
        _warmed_up = True
    times = []
    for _ in range(repeats):
        start = clock()
        work()
        sync()
        times.append(clock() - start)
    return statistics.median(times)


answer = time_fn
