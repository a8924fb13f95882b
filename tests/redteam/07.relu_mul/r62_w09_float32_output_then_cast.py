# expect: fail the kernel stores into a float32 output which is then cast with .to(x.dtype): for a float16 x that is an extra allocation and an extra PyTorch pass over memory
# hint: cast|copy|extra|pass|\.to\b|to\(|float32|bytes|conver|traffic
import os

os.environ.setdefault("TRITON_INTERPRET", "1")  # as the exercise notebook's set-up cell does

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
    """relu(x) * y, element by element, computed by relu_mul_kernel."""
    x, y = x.contiguous(), y.contiguous()  # the kernel assumes element i at ptr + i
    # the product is float32 (as PyTorch's is): store it as float32, then give it x's dtype
    out = torch.empty(x.shape, dtype=torch.float32, device=x.device)
    n = x.numel()
    grid = (triton.cdiv(n, block),)
    relu_mul_kernel[grid](x, y, out, n, BLOCK=block)
    return out.to(x.dtype)


answer = relu_mul
