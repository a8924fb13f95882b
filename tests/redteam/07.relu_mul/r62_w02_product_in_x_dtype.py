# expect: fail the kernel converts y to x's dtype before multiplying: with x float16 and y float32 the product is rounded (or overflows to inf for large y) in float16 instead of being computed in float32
# hint: float32|float16|half|dtype|precision|promot|overflow|round|inf
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
    y = tl.load(y_ptr + offsets, mask=mask).to(x.dtype)  # one dtype for the product: x's
    tl.store(out_ptr + offsets, tl.maximum(x, 0.0) * y, mask=mask)


def relu_mul(x, y, block=1024):
    """relu(x) * y, element by element, computed by relu_mul_kernel."""
    x, y = x.contiguous(), y.contiguous()  # the kernel assumes element i at ptr + i
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = x.numel()
    grid = (triton.cdiv(n, block),)
    relu_mul_kernel[grid](x, y, out, n, BLOCK=block)
    return out


answer = relu_mul
