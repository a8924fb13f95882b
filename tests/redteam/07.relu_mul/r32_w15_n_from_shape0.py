# expect: fail passes n = x.shape[0] (the number of rows) instead of x.numel(), so only the first elements of a 2-D input are computed
# hint: numel|element|size|n\b|shape
import os

os.environ["TRITON_INTERPRET"] = "1"

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
    tl.store(out_ptr + offsets, tl.maximum(x, 0.0) * y, mask=mask)


def relu_mul(x, y, block=1024):
    x, y = x.contiguous(), y.contiguous()
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = x.shape[0]
    relu_mul_kernel[(triton.cdiv(n, block),)](x, y, out, n, BLOCK=block)
    return out


answer = relu_mul
