# expect: fail warms up only on the first call of time_fn in the process; later calls (new work) get no warm-up
# hint: warm.?up|second call|first call|cold|one.?off
# Wrong: step 1 asks for a warm-up call and sync before any clock read of *this* call;
# a module-level flag skips it from the second call on, so a new work()'s one-off costs are timed.
import statistics
import time

_warmed_up = False


def answer(work, sync, clock=time.perf_counter, repeats=5):
    global _warmed_up
    if not _warmed_up:  # "the CUDA context only needs creating once"
        work()
        sync()
        _warmed_up = True
    times = []
    for _ in range(repeats):
        t0 = clock()
        work()
        sync()
        times.append(clock() - t0)
    return statistics.median(times)
