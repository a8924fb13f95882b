# expect: fail lambdas in a loop close over the loop variable t: a lane that runs its job after the loop moved on computes y @ y for x
# hint: late.?bind|closure|lambda|loop variable|x ?@ ?x|wrong (value|result|product)|differ|not (equal|close)|mismatch
import torch


def run_concurrently(x, y, lanes):
    futures = []
    for lane, t in zip(lanes, (x, y)):
        futures.append(lane.submit(lambda: t @ t))  # t is looked up when the lambda runs
    return tuple(f.result() for f in futures)


answer = run_concurrently
