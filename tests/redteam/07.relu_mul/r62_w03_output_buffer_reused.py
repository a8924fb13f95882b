# expect: fail the output buffer is allocated once per shape and dtype and reused: a second call overwrites the tensor returned by the first instead of returning a new one
# hint: new tensor|fresh|reus|cache|alias|overwr|same (tensor|buffer|memory|storage)|second call|previous|earlier
import os

os.environ.setdefault("TRITON_INTERPRET", "1")  # as the exercise notebook's set-up cell does

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


_out_buffers = {}  # (shape, dtype, device) -> output, to save an allocation per call


def relu_mul(x, y, block=1024):
    """relu(x) * y, element by element, computed by relu_mul_kernel."""
    x, y = x.contiguous(), y.contiguous()  # the kernel assumes element i at ptr + i
    key = (tuple(x.shape), x.dtype, x.device)
    out = _out_buffers.get(key)
    if out is None:
        out = _out_buffers[key] = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = x.numel()
    grid = (triton.cdiv(n, block),)
    relu_mul_kernel[grid](x, y, out, n, BLOCK=block)
    return out


answer = relu_mul
