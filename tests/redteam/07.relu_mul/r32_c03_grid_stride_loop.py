# expect: pass a fixed small grid of programs that each loop over blocks (grid-stride loop), inputs made contiguous
# hint: 
import os

os.environ["TRITON_INTERPRET"] = "1"

import torch
import triton
import triton.language as tl


@triton.jit
def relu_mul_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    step = tl.num_programs(0) * BLOCK
    for start in range(pid * BLOCK, n, step):
        offs = start + tl.arange(0, BLOCK)
        m = offs < n
        xv = tl.load(x_ptr + offs, mask=m)
        yv = tl.load(y_ptr + offs, mask=m)
        tl.store(out_ptr + offs, tl.maximum(xv, 0.0) * yv, mask=m)


def relu_mul(x, y):
    xc = x.contiguous()
    yc = y.contiguous()
    out = torch.empty_like(xc)
    n = xc.numel()
    BLOCK = 64
    programs = max(1, min(3, triton.cdiv(n, BLOCK)))
    relu_mul_kernel[(programs,)](xc, yc, out, n, BLOCK=BLOCK)
    return out


answer = relu_mul
