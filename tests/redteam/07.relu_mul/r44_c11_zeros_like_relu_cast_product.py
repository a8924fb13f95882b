# expect: pass relu as tl.maximum(x, tl.zeros_like(x)), the product promoted to float32 by casting only y with .to(tl.float32) (exact), output from torch.empty(tuple(x.size()), ...).
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
    y = tl.load(y_ptr + offsets, mask=mask).to(tl.float32)
    r = tl.maximum(x, tl.zeros_like(x))  # exact in x's dtype
    tl.store(out_ptr + offsets, r * y, mask=mask)  # float32 product, stored in out's dtype


def relu_mul(x, y):
    """relu(x) * y, element by element, computed by relu_mul_kernel."""
    x = x.contiguous()
    y = y.contiguous()
    n = x.numel()
    out = torch.empty(tuple(x.size()), dtype=x.dtype, device=x.device)
    relu_mul_kernel[(triton.cdiv(n, 32),)](x, y, out, n, BLOCK=32)
    return out
