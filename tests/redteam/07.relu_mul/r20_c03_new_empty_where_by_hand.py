# expect: pass x.new_empty(x.shape), relu written with tl.where, grid count computed by hand as (n + B - 1) // B
# hint: 
import os

os.environ["TRITON_INTERPRET"] = "1"

import torch
import triton
import triton.language as tl

BLOCK = 256


@triton.jit
def relu_mul_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    idx = pid * BLOCK + tl.arange(0, BLOCK)
    m = idx < n
    xv = tl.load(x_ptr + idx, mask=m, other=0.0)
    yv = tl.load(y_ptr + idx, mask=m, other=0.0)
    r = tl.where(xv > 0, xv, 0.0)
    tl.store(out_ptr + idx, r * yv, mask=m)


def relu_mul(x, y):
    """relu(x) * y, element by element, computed by relu_mul_kernel."""
    xc, yc = x.contiguous(), y.contiguous()
    out = x.new_empty(x.shape)  # new_empty with a shape is contiguous, x's dtype and device
    n = xc.numel()
    programs = (n + BLOCK - 1) // BLOCK
    relu_mul_kernel[(programs,)](xc, yc, out, n, BLOCK=BLOCK)
    return out


answer = relu_mul
