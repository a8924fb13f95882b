# expect: pass preallocated array('d') of samples and a hand-written median (mean of the two middle ones when even)
# hint: 
import time
from array import array


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    """Median seconds per call of work(), synchronizing with sync() before each clock read."""
    work()
    sync()
    samples = array("d", bytes(8 * repeats))  # repeats zeros
    for i in range(repeats):
        t0 = clock()
        work()
        sync()
        t1 = clock()
        samples[i] = t1 - t0
    ordered = sorted(samples)
    mid = len(ordered) // 2
    if len(ordered) % 2:
        return ordered[mid]
    return (ordered[mid - 1] + ordered[mid]) / 2


answer = time_fn
