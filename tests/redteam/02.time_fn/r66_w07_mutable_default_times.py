# expect: fail keeps the times in a mutable default list: a second call's median mixes in the first call's times
# hint: second call|previous|earlier|accumulat|state|clear|stale|reus|left over|mutable|default|repeats|number of (times|samples|measurements)
# Wrong: `times=[]` as a default is created once; every call appends to the same list, so from
# the second call on the median is over all calls' times, not this work's `repeats` times.
import statistics
import time


def answer(work, sync, clock=time.perf_counter, repeats=5, times=[]):  # noqa: B006
    work()
    sync()
    for _ in range(repeats):
        t0 = clock()
        work()
        sync()
        times.append(clock() - t0)
    return statistics.median(times)
