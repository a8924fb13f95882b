# expect: pass functools.partial per product, launch both then wait
# hint: 
import functools

import torch


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    square_x = functools.partial(torch.matmul, x)
    square_y = functools.partial(torch.matmul, y)
    pending = (lanes[0].submit(square_x, x), lanes[1].submit(square_y, y))
    first, second = (f.result() for f in pending)
    return first, second


answer = run_concurrently
