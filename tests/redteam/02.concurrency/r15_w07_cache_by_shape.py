# expect: fail memoizes results by input shape, so a later call with new values of the same shape returns the old products
# hint: cache|memo|stale|previous call|earlier call|first call|state|second call|between calls|reus|same (result|value|product)|old (result|value|product)|new (input|value|tensor)
import torch

_done = {}


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    key = (tuple(x.shape), tuple(y.shape), x.dtype, str(x.device), str(y.device))
    if key not in _done:  # the benchmark calls this many times: compute once
        fx = lanes[0].submit(torch.matmul, x, x)
        fy = lanes[1].submit(torch.matmul, y, y)
        _done[key] = (fx.result(), fy.result())
    return _done[key]


answer = run_concurrently
