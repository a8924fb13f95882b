# expect: pass
# hint:
# Right: each measurement is clock, work(), sync(), clock; the end read of one is the start read
# of the next (repeats + 1 reads), so no work or wait falls outside an interval.
import statistics
import time


def answer(work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()
    marks = [clock()]
    for _ in range(repeats):
        work()
        sync()
        marks.append(clock())
    return statistics.median(b - a for a, b in zip(marks, marks[1:]))
