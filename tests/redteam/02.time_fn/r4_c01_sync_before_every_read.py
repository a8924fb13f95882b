# expect: pass
# hint: 
import statistics, time
def answer(work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()
    samples = []
    for _ in range(repeats):
        sync()  # the docstring: sync before each clock read (the queue is empty: it returns at once)
        start = clock()
        work()
        sync()
        samples.append(clock() - start)
    return statistics.median(samples)
