# expect: fail memoizes the results by the inputs' data_ptr and shape: a second call with new values in the same memory (an in-place update, or memory the allocator hands out again) returns the stale products without launching anything
# hint: cach|memo|stale|second call|repeat|again|reus|no (launch|work|submit)|not (launched|submitted)|fresh
import torch

_memo = {}


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    key = (x.data_ptr(), tuple(x.shape), x.dtype, y.data_ptr(), tuple(y.shape), y.dtype)
    if key in _memo:  # the benchmark calls us with the same inputs again and again
        return _memo[key]
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    _memo[key] = (fx.result(), fy.result())
    return _memo[key]


answer = run_concurrently
