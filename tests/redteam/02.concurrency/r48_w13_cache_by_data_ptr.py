# expect: fail memoizes results by the inputs' data_ptr(): a new tensor allocated at a freed one's address gets the old products
# hint: cache|memo|stale|state|previous|earlier call|data_?ptr|address|x ?@ ?x|wrong (value|result)|differ
import torch

_cache = {}


def run_concurrently(x, y, lanes):
    key = (x.data_ptr(), y.data_ptr(), tuple(x.shape), tuple(y.shape))  # benchmarks call it over and over
    if key not in _cache:
        fx = lanes[0].submit(torch.matmul, x, x)
        fy = lanes[1].submit(torch.matmul, y, y)
        _cache[key] = (fx.result(), fy.result())
    return _cache[key]


answer = run_concurrently
