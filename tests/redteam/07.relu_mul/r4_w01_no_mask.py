# expect: fail no mask on the loads and the store: the last block reads and writes past n
# hint: mask|bound
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
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    tl.store(out_ptr + offs, tl.maximum(x, 0.0) * y)


def answer(x, y):
    xc, yc = x.contiguous(), y.contiguous()
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = x.numel()
    BLOCK = 128
    grid = (triton.cdiv(n, BLOCK),)
    relu_mul_kernel[grid](xc, yc, out, n, BLOCK=BLOCK)
    return out
