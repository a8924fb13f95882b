# expect: pass flattens with reshape(-1) (copies non-contiguous inputs), launch grid as a lambda of meta, tl.where instead of tl.maximum
# hint: 
import os

os.environ["TRITON_INTERPRET"] = "1"

import torch
import triton
import triton.language as tl


@triton.jit
def relu_mul_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    start = tl.program_id(0) * BLOCK
    idx = start + tl.arange(0, BLOCK)
    inside = idx < n
    a = tl.load(x_ptr + idx, mask=inside, other=0.0)
    b = tl.load(y_ptr + idx, mask=inside, other=0.0)
    res = tl.where(a > 0, a * b, 0.0)
    tl.store(out_ptr + idx, res.to(out_ptr.dtype.element_ty), mask=inside)


def relu_mul(x, y):
    flat_x = x.reshape(-1)
    flat_y = y.reshape(-1)
    if not flat_x.is_contiguous():
        flat_x = flat_x.contiguous()
    if not flat_y.is_contiguous():
        flat_y = flat_y.contiguous()
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = flat_x.numel()
    grid = lambda meta: (triton.cdiv(n, meta["BLOCK"]),)
    relu_mul_kernel[grid](flat_x, flat_y, out, n, BLOCK=256)
    return out


answer = relu_mul
