# expect: pass launches both with a list comprehension over (lane, matrix) pairs that keeps each future's bound .result method, then calls the two methods: both submitted before either wait
# hint: 
import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    waits = [lane.submit(torch.matmul, m, m).result for lane, m in ((lanes[0], x), (lanes[1], y))]
    xx, yy = (wait() for wait in waits)
    return xx, yy


answer = run_concurrently
