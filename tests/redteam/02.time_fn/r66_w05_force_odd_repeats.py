# expect: fail forces an odd number of measurements (repeats | 1): repeats=4 takes 5 measurements
# hint: repeats|number of (measurements|samples|times|calls)|even|calls? (to )?work|too many|how many
# Wrong: the prompt asks for `repeats` measurements and, for an even count, the mean of the two
# middle times; rounding an even repeats up "so the median is a real sample" does neither.
import statistics
import time


def answer(work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()
    times = []
    for _ in range(repeats | 1):  # odd, so the median is one of the samples
        t0 = clock()
        work()
        sync()
        times.append(clock() - t0)
    return statistics.median(times)
