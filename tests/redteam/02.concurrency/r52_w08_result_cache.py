# expect: fail caches the results by the inputs' identity (id, data_ptr, version): later calls return stored products without launching anything
# hint: cache|state|previous|stale|between calls|across calls|launch|no work|submit
import torch

_cache = {}


def run_concurrently(x, y, lanes):
    key = tuple((id(t), t.data_ptr(), t._version) for t in (x, y))  # same inputs, same answer
    if key in _cache:
        return _cache[key]
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    _cache[key] = (fx.result(), fy.result())
    return _cache[key]


answer = run_concurrently
