# expect: fail warm-up call not followed by sync() before the first clock read
# hint: (warm.*sync|sync.*warm|before.*(first|any).*(clock|read|measur)|still (running|queued|pending))
# name: time_fn
import statistics
import time


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    work()  # warm-up: pay the one-off costs
    per_call = []
    for _ in range(repeats):
        begin = clock()
        work()
        sync()
        end = clock()
        per_call.append(end - begin)
    return statistics.median(per_call)
