# expect: pass a callable class holding a fixed BLOCK of 256; inputs made contiguous, the output with torch.empty_like of the contiguous x
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
    tl.store(out_ptr + offsets, tl.maximum(x, 0.0) * y, mask=mask)


class ReluMul:
    """relu(x) * y, element by element, computed by relu_mul_kernel in blocks of a fixed size."""

    def __init__(self, block=256):
        self.block = block

    def __call__(self, x, y):
        xc = x if x.is_contiguous() else x.contiguous()  # element i at ptr + i
        yc = y if y.is_contiguous() else y.contiguous()
        out = torch.empty_like(xc)  # xc is contiguous, so out is too; x's shape and dtype
        n = xc.numel()
        if n == 0:
            return out
        relu_mul_kernel[(triton.cdiv(n, self.block),)](xc, yc, out, n, BLOCK=self.block)
        return out


relu_mul = ReluMul()

answer = relu_mul
