# expect: pass Triton's grid-as-a-function launch (meta['BLOCK']) with BLOCK=128, relu written as tl.where(x > 0, x, 0) before the product, and a closure factory
# hint:
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
    relu = tl.where(x > 0, x, 0.0)  # relu first; the product then promotes as PyTorch's does
    tl.store(out_ptr + offsets, relu * y, mask=mask)


def make_relu_mul(block):
    def relu_mul(x, y):
        """relu(x) * y, element by element, computed by relu_mul_kernel."""
        x, y = x.contiguous(), y.contiguous()  # no copy when already contiguous
        out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
        n = x.numel()
        relu_mul_kernel[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](x, y, out, n, BLOCK=block)
        return out

    return relu_mul


answer = make_relu_mul(128)
