# expect: fail reads the start clock after work() returns: the launch is left out of each interval
# hint: launch|before (calling )?work|order|start.{0,20}(clock|read|time)|clock.{0,20}(before|after)|too short|under.?(estimat|report)
# Wrong: step 2 reads clock() *before* work(); launching first and then starting the clock
# misses the launch (and whatever the job did meanwhile), so each time is too short.
import statistics
import time


def answer(work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()
    times = []
    for _ in range(repeats):
        work()  # queued: the timing below waits for it
        t0 = clock()
        sync()
        times.append(clock() - t0)
    return statistics.median(times)
