# expect: fail results cached between calls by the inputs' address and shape: a second call reuses stale products and computes nothing
# hint: cach|memo|stale|second call|reus|previous call|between calls|same (address|storage|data_ptr)
# Wrong: the benchmark calls it repeatedly with the same tensors, so the learner memoizes by
# data_ptr(); a second call after the inputs changed in place returns the old products, unlaunched.

import torch

_cache = {}


def answer(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    key = (x.data_ptr(), y.data_ptr(), tuple(x.shape), tuple(y.shape), x.device, y.device)
    if key in _cache:
        return _cache[key]
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    _cache[key] = (fx.result(), fy.result())
    return _cache[key]
