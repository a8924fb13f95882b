# expect: pass computes in float32 inside the kernel and lets tl.store cast back, tiny block of 16 so many programs run, num_warps given
# hint: 
import os

os.environ["TRITON_INTERPRET"] = "1"

import torch
import triton
import triton.language as tl


@triton.jit
def relu_mul_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(axis=0) * BLOCK + tl.arange(0, BLOCK)
    valid = offs < n
    xv = tl.load(x_ptr + offs, mask=valid).to(tl.float32)
    yv = tl.load(y_ptr + offs, mask=valid).to(tl.float32)
    tl.store(out_ptr + offs, tl.maximum(xv, 0.0) * yv, mask=valid)


def relu_mul(x, y):
    if not x.is_contiguous():
        x = x.contiguous()
    if not y.is_contiguous():
        y = y.contiguous()
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    total = out.numel()
    relu_mul_kernel[(triton.cdiv(total, 16),)](x, y, out, total, BLOCK=16, num_warps=1)
    return out


answer = relu_mul
