# expect: fail grid of n // BLOCK programs (floor): the tail past the last full block is never computed
# hint: cdiv|grid|tail|program|block
import os
os.environ["TRITON_INTERPRET"] = "1"
import torch
import triton
import triton.language as tl

@triton.jit
def relu_mul_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, tl.maximum(x, 0.0) * y, mask=mask)


def answer(x, y):
    xc, yc = x.contiguous(), y.contiguous()
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = x.numel()
    BLOCK = 128
    grid = (max(n // BLOCK, 1),)
    relu_mul_kernel[grid](xc, yc, out, n, BLOCK=BLOCK)
    return out
