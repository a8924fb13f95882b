# expect: pass casts inside the kernel: both loads .to(tl.float32), the product in float32, then .to(out_ptr.dtype.element_ty) before the store; BLOCK=1024.
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
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask).to(tl.float32)  # exact for float16 and float32
    y = tl.load(y_ptr + offsets, mask=mask).to(tl.float32)
    product = tl.maximum(x, 0.0) * y  # float32, as PyTorch's product of mixed halves and floats
    tl.store(out_ptr + offsets, product.to(out_ptr.dtype.element_ty), mask=mask)


def relu_mul(x, y):
    """relu(x) * y, element by element, computed by relu_mul_kernel."""
    x = x.contiguous()
    y = y.contiguous()
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = x.numel()
    relu_mul_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
    return out
