# expect: pass nested helper, sorted list and hand-computed median (mean of middle two)
# hint: 
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    def once():
        t0 = clock()
        work()
        sync()
        t1 = clock()
        return t1 - t0

    work(); sync()  # warm-up
    ts = sorted(once() for _ in range(repeats))
    mid = len(ts) // 2
    if len(ts) % 2:
        return ts[mid]
    return (ts[mid - 1] + ts[mid]) / 2


answer = time_fn
