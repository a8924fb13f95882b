# expect: fail times all the calls in one window and divides
# hint: time each call on its own
import statistics, time
def answer(work, sync, clock=time.perf_counter, repeats=5):
    work(); sync()
    t0 = clock()
    for _ in range(repeats):
        work()
    sync()
    return (clock() - t0) / repeats
