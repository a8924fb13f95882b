# expect: pass functools.partial jobs over zip(lanes, inputs); both futures made in an eager list before any result()
# hint:
import functools

import torch


def run_concurrently(x, y, lanes):
    jobs = [functools.partial(torch.matmul, t, t) for t in (x, y)]
    futures = [lane.submit(job) for lane, job in zip(lanes, jobs)]  # both launched here
    return [f.result() for f in futures]  # then both waited for


answer = run_concurrently
