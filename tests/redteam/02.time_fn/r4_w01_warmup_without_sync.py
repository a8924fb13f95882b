# expect: fail warm-up calls work() but not sync(): the warm-up job is still running when the first clock is read
# hint: warm|sync\(\) after|before any clock|before the first clock|first
import statistics, time
def answer(work, sync, clock=time.perf_counter, repeats=5):
    work()  # warm-up
    times = []
    for _ in range(repeats):
        t0 = clock(); work(); sync(); times.append(clock() - t0)
    return statistics.median(times)
