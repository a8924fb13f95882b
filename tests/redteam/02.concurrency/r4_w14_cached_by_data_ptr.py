# expect: fail memoizes the results by the inputs' data_ptr: a later call with new values in the same memory gets stale products, and repeated calls do no work
# hint: cache|stale|same memory|state|values|differ|expected|submit|launch
import torch
_memo = {}
def answer(x, y, lanes):
    key = (x.data_ptr(), y.data_ptr(), tuple(x.shape), tuple(y.shape))
    if key not in _memo:
        fx = lanes[0].submit(torch.matmul, x, x)
        fy = lanes[1].submit(torch.matmul, y, y)
        _memo[key] = (fx.result(), fy.result())
    return _memo[key]
