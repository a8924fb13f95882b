# expect: pass median by sorting (works for odd and even counts), milliseconds never
# hint: 
import time
def answer(work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()
    ts = []
    while len(ts) < repeats:
        start = clock()
        work()
        sync()
        end = clock()
        ts.append(end - start)
    ts.sort()
    mid = len(ts) // 2
    return ts[mid] if len(ts) % 2 else (ts[mid - 1] + ts[mid]) / 2
