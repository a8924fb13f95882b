# expect: fail writes the products into module-level buffers reused across calls (out=): a second call overwrites the tensors the first call returned
# hint: buffer|reuse|state|previous|overwrit|alias|same tensor|between calls|across calls
import functools

import torch

_buffers = {}  # (lane index, shape, dtype, device) -> output tensor, to skip an allocation per call


def _out_for(i, t):
    key = (i, tuple(t.shape), t.dtype, t.device)
    if key not in _buffers:
        _buffers[key] = torch.empty(t.shape[0], t.shape[1], dtype=t.dtype, device=t.device)
    return _buffers[key]


def run_concurrently(x, y, lanes):
    futures = [
        lanes[i].submit(functools.partial(torch.matmul, out=_out_for(i, t)), t, t)
        for i, t in enumerate((x, y))
    ]
    return tuple(f.result() for f in futures)


answer = run_concurrently
