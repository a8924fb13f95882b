# expect: fail rounds y to x's dtype inside the kernel (y.to(x.dtype)) before multiplying: with a float16 x and a float32 y the product is of a rounded y, not PyTorch's float32 product, off by an ulp in about 1 element in 8, which assert_close's float16 tolerance lets through.
# hint: float32|product|round|dtype|ulp|exact
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
    y = tl.load(y_ptr + offsets, mask=mask).to(x.dtype)  # "compute in the output's dtype"
    tl.store(out_ptr + offsets, tl.maximum(x, 0.0).to(x.dtype) * y, mask=mask)


def relu_mul(x, y):
    """relu(x) * y, element by element, computed by relu_mul_kernel."""
    x, y = x.contiguous(), y.contiguous()
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = x.numel()
    relu_mul_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
    return out
