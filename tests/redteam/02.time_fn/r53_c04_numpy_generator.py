# expect: pass a generator of per-call times and numpy.median (mean of the two middle ones), converted to float
# hint:
import time

import numpy as np


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    def samples():
        for _ in range(repeats):
            start = clock()
            work()
            sync()
            yield clock() - start

    work()
    sync()  # the warm-up's job is done before the first clock read
    return float(np.median(np.fromiter(samples(), dtype=np.float64, count=repeats)))


answer = time_fn
