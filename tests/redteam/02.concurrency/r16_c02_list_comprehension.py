# expect: pass list comprehension over zip(lanes, inputs), args bound at submit, then a second pass to wait
# hint: 
import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    futures = [lane.submit(torch.matmul, t, t) for lane, t in zip(lanes[:2], (x, y))]  # all launched
    xx, yy = [future.result() for future in futures]  # then all awaited
    return xx, yy


answer = run_concurrently
