# expect: fail ignores repeats: always takes 5 measurements
# hint: repeats|number of (measurements|calls|times)|count|how many
# Wrong: step 2 asks for `repeats` measurements; this hard-codes the default, so repeats=21
# (as in the chapter's comparison cell) still times 5 calls.
import statistics
import time

REPEATS = 5


def answer(work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()
    times = []
    for _ in range(REPEATS):
        start = clock()
        work()
        sync()
        times.append(clock() - start)
    return statistics.median(times)
