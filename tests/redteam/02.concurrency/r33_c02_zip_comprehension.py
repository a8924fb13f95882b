# expect: pass zip over lanes and inputs: a list of futures, then a tuple of their results
# hint:
import torch


def run_concurrently(x, y, lanes):
    futures = [lane.submit(torch.mm, t, t) for lane, t in zip(lanes, (x, y))]
    return tuple(f.result() for f in futures)


answer = run_concurrently
