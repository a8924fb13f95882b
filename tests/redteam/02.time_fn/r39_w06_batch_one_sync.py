# expect: fail times all repeats as one batch with one sync at the end, returns total/repeats (not a median of per-call times)
# hint: median|sync|each
import time
def answer(work, sync, clock=time.perf_counter, repeats=5):
    work(); sync()
    t0 = clock()
    for _ in range(repeats):
        work()
    sync()
    return (clock() - t0) / repeats
