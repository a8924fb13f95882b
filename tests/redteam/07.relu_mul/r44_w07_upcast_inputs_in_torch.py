# expect: fail casts the float16 input to float32 with PyTorch (x.float(), y.float()) before the launch: exact values, but an extra pass over the float16 input and a float32 copy of it, so the kernel no longer reads x and y once.
# hint: cast|float\(\)|copy|pass|once|in the kernel
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
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    xf = x.float().contiguous()  # the product is float32: give the kernel float32
    yf = y.float().contiguous()
    n = xf.numel()
    relu_mul_kernel[(triton.cdiv(n, 1024),)](xf, yf, out, n, BLOCK=1024)
    return out
