# expect: fail memoizes the results by the inputs' identity, so a second call with the same tensor objects (changed in place, or a new tensor at a reused id) returns stale products without launching
# hint: cache|cached|memo|stale|reus|previous|earlier call|second call|in place|changed|launch
import torch

_done = {}


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    key = (id(x), id(y), x.shape, y.shape, x.device, y.device)
    if key in _done:  # a benchmark calls this again and again: reuse the products
        return _done[key]
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    _done[key] = (fx.result(), fy.result())
    return _done[key]


answer = run_concurrently
