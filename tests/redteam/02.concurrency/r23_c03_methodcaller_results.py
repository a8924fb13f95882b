# expect: pass futures built with a list comprehension over zip(lanes, inputs), results gathered with map(operator.methodcaller("result"))
# hint: 
import operator

import torch

_result = operator.methodcaller("result")


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    futures = [lane.submit(torch.mm, t, t) for lane, t in zip(lanes, (x, y))]
    return tuple(map(_result, futures))


answer = run_concurrently
