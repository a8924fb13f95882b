# expect: fail writes the products into output buffers kept between calls (torch.matmul(..., out=buf)): the tensors returned by one call are overwritten by the next call, so a caller's earlier results change
# hint: buffer|reus|alias|overwrit|out=|same (memory|storage)|second call|between calls|earlier result
import torch

_buffers = {}  # (which, shape, dtype, device) -> preallocated output, saves an allocation per call


def _out(which, t):
    key = (which, tuple(t.shape), t.dtype, t.device)
    if key not in _buffers:
        _buffers[key] = torch.empty_like(t)
    return _buffers[key]


def _square_into(t, out):
    return torch.matmul(t, t, out=out)


def run_concurrently(x, y, lanes):
    """(x @ x, y @ y), computed on lanes[0] and lanes[1] at the same time."""
    fx = lanes[0].submit(_square_into, x, _out(0, x))
    fy = lanes[1].submit(_square_into, y, _out(1, y))
    return fx.result(), fy.result()


answer = run_concurrently
