# expect: fail caches results by the inputs' data pointers between calls: a second call with inputs changed in place (same memory) returns stale products without launching anything
# hint: cache|stale|second call|state|between calls|memo|data_ptr
import torch

_seen = {}


def run_concurrently(x, y, lanes):
    key = (x.data_ptr(), y.data_ptr(), tuple(x.shape), tuple(y.shape))
    if key in _seen:
        return _seen[key]
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    _seen[key] = (fx.result(), fy.result())
    return _seen[key]


answer = run_concurrently
