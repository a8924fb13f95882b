# expect: pass small blocks of 64, masked loads with other=0.0 (harmless: masked lanes are not stored), output from x.new_empty(x.shape).
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
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    a = tl.load(x_ptr + offs, mask=m, other=0.0)
    b = tl.load(y_ptr + offs, mask=m, other=0.0)
    tl.store(out_ptr + offs, tl.maximum(a, 0.0) * b, mask=m)


def relu_mul(x, y):
    """relu(x) * y, element by element, computed by relu_mul_kernel."""
    xc = x.contiguous()
    yc = y.contiguous()
    out = xc.new_empty(x.shape)  # a new contiguous tensor, x's dtype and device
    n = xc.numel()
    relu_mul_kernel[(triton.cdiv(n, 64),)](xc, yc, out, n, BLOCK=64)
    return out
