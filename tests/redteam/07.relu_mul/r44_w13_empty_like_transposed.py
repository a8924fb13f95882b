# expect: fail makes the output with torch.empty_like(x) of the original x: for a transposed x that output is transposed too, so element i at out_ptr + i lands in the wrong place and the result is not contiguous.
# hint: contiguous|empty_like|layout|transpos|stride
# name: relu_mul
import os

os.environ.setdefault("TRITON_INTERPRET", "1")  # as the exercise set-up cell does, before importing triton

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


def relu_mul(x, y):
    """relu(x) * y, element by element, computed by relu_mul_kernel."""
    out = torch.empty_like(x)  # x's shape, dtype and device
    xc, yc = x.contiguous(), y.contiguous()
    n = xc.numel()
    relu_mul_kernel[(triton.cdiv(n, 1024),)](xc, yc, out, n, BLOCK=1024)
    return out
