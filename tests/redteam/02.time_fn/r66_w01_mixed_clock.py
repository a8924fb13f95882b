# expect: fail reads the given clock() at the start but time.perf_counter() at the end (mixes clocks)
# hint: given clock|clock.*(given|passed|yours?)|perf_counter|(mix|two|different|own|wrong).{0,20}clock
# Wrong: the prompt says "use the clock you are given"; the end read copies the chapter's
# time.perf_counter(), so each interval subtracts readings of two different clocks.
import statistics
import time


def answer(work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()
    times = []
    for _ in range(repeats):
        start = clock()
        work()
        sync()
        times.append(time.perf_counter() - start)
    return statistics.median(times)
