# expect: pass disables the garbage collector while timing and puts back its previous state in finally
# hint:
import gc
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        work()
        sync()
        samples = [0.0] * repeats  # preallocated
        for i in range(repeats):
            t0 = clock()
            work()
            sync()
            t1 = clock()
            samples[i] = t1 - t0
    finally:
        if was_enabled:
            gc.enable()
    return statistics.median(samples)


answer = time_fn
