# expect: pass the product as functools.partial(torch.tensordot, dims=1) (contracting x's last dimension with x's first: x @ x for matrices), both futures launched before either result() is read
# hint: 
import functools

import torch

_square = functools.partial(torch.tensordot, dims=1)


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    fx = lanes[0].submit(_square, x, x)
    fy = lanes[1].submit(_square, y, y)
    return fx.result(), fy.result()


answer = run_concurrently
