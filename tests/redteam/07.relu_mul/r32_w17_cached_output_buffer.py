# expect: fail reuses one cached output buffer per shape and dtype across calls, so a second call overwrites the tensor returned by the first (not a new tensor)
# hint: new|buffer|same|reus|overwr|memory|previous
import os

os.environ["TRITON_INTERPRET"] = "1"

import torch
import triton
import triton.language as tl


@triton.jit
def relu_mul_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, tl.maximum(x, 0.0) * y, mask=mask)


_outputs = {}


def relu_mul(x, y, block=1024):
    x, y = x.contiguous(), y.contiguous()
    key = (tuple(x.shape), x.dtype, x.device)
    if key not in _outputs:
        _outputs[key] = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    out = _outputs[key]
    n = x.numel()
    relu_mul_kernel[(triton.cdiv(n, block),)](x, y, out, n, BLOCK=block)
    return out


answer = relu_mul
