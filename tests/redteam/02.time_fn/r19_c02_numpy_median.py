# expect: pass numpy.median of a preallocated array (returns numpy.float64, a float subclass)
# hint: 
import time

import numpy as np


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    """Median seconds per call of work(), synchronizing with sync() before each clock read."""
    work()
    sync()
    times = np.empty(repeats)
    for i in range(repeats):
        start = clock()
        work()
        sync()
        times[i] = clock() - start
    return np.median(times)


answer = time_fn
