# expect: fail sync() called after the second clock read: each time is only the launch
# hint: sync|launch|wait|asynchron|before (the|each|every) clock
# Wrong: step 2 orders clock, work, sync, clock. Reading the clock before sync() measures
# the ~10 us launch; the sync afterwards waits for the job but nobody times it.
import statistics
import time


def answer(work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()
    times = []
    for _ in range(repeats):
        start = clock()
        work()
        end = clock()
        sync()  # waits, but after the clock was read
        times.append(end - start)
    return statistics.median(times)
