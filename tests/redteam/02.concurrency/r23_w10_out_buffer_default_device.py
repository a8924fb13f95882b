# expect: fail preallocates each result with torch.empty(shape) on the default device and dtype and passes it as out=: right only for float32 inputs on the CPU; a CUDA or float64 input makes matmul raise (out on the wrong device / dtype)
# hint: out=|out buffer|prealloc|empty|default (device|dtype)|device|dtype|float64
import torch


def _square_into(t, out):
    return torch.matmul(t, t, out=out)


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    # allocate the outputs up front so the lanes only compute
    xx = torch.empty(x.shape[0], x.shape[1])
    yy = torch.empty(y.shape[0], y.shape[1])
    fx = lanes[0].submit(_square_into, x, xx)
    fy = lanes[1].submit(_square_into, y, yy)
    return fx.result(), fy.result()


answer = run_concurrently
