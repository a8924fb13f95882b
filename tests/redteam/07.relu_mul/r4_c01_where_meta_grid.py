# expect: pass tl.where for relu, a grid lambda over meta['BLOCK'], reshape(-1) inputs and empty_like of the contiguous input, view back
# hint: 
import os
os.environ["TRITON_INTERPRET"] = "1"
import torch
import triton
import triton.language as tl

@triton.jit
def relu_mul_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    start = tl.program_id(axis=0) * BLOCK
    idx = start + tl.arange(0, BLOCK)
    ok = idx < n
    a = tl.load(x_ptr + idx, mask=ok, other=0.0)
    b = tl.load(y_ptr + idx, mask=ok, other=0.0)
    r = tl.where(a > 0, a, 0.0) * b
    tl.store(out_ptr + idx, r, mask=ok)


def answer(x, y):
    xf = x.reshape(-1).contiguous()
    yf = y.reshape(-1).contiguous()
    out = torch.empty_like(xf)
    n = xf.numel()
    if n:
        grid = lambda meta: (triton.cdiv(n, meta["BLOCK"]),)
        relu_mul_kernel[grid](xf, yf, out, n, BLOCK=64)
    return out.view(x.shape)
