# expect: pass add_kernel style with BLOCK=256, a tuple grid, tl.maximum and tl.store converting the float32 product to out's dtype.
# hint: 
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
    # float16 with float32 promotes to float32, as in PyTorch; the store converts to x's dtype
    tl.store(out_ptr + offsets, tl.maximum(x, 0.0) * y, mask=mask)


def relu_mul(x, y):
    """relu(x) * y, element by element, computed by relu_mul_kernel."""
    x, y = x.contiguous(), y.contiguous()  # element i at ptr + i (no copy when already so)
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = x.numel()
    block = 256
    relu_mul_kernel[(triton.cdiv(n, block),)](x, y, out, n, BLOCK=block)
    return out
