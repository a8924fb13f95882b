# expect: pass copies an input only when it is not contiguous, computes in float32 inside the kernel, tl.where relu
# hint: 
import os

os.environ["TRITON_INTERPRET"] = "1"

import torch
import triton
import triton.language as tl


@triton.jit
def relu_mul_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
    y = tl.load(y_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
    result = tl.where(x > 0.0, x, 0.0) * y
    tl.store(out_ptr + offsets, result.to(out_ptr.dtype.element_ty), mask=mask)


def relu_mul(x, y):
    """relu(x) * y, element by element, computed by relu_mul_kernel."""
    if not x.is_contiguous():
        x = x.contiguous()
    if not y.is_contiguous():
        y = y.contiguous()
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = out.numel()
    block = 128
    relu_mul_kernel[(triton.cdiv(n, block),)](x, y, out, n, BLOCK=block)
    return out


answer = relu_mul
