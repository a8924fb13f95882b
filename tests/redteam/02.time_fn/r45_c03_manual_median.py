# expect: pass while loop and a hand-written median (mean of the two middle values)
# hint: 
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()
    durations = []
    i = 0
    while i < repeats:
        begin = clock()
        work()
        sync()
        durations.append(clock() - begin)
        i += 1
    ordered = sorted(durations)
    mid = len(ordered) // 2
    if len(ordered) % 2:
        return ordered[mid]
    return (ordered[mid - 1] + ordered[mid]) / 2


answer = time_fn
