# expect: pass functools.partial of a general function with BLOCK=512; inputs flattened with .contiguous().view(-1), a flat output viewed back to x's shape
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


import functools


def _flat(t):
    return t.contiguous().view(-1)  # no copy when already contiguous; reshape(-1) of a strided
    # 1-D tensor would be the strided tensor itself


def _relu_mul(x, y, *, block):
    n = x.numel()
    out = torch.empty(n, dtype=x.dtype, device=x.device)
    grid = (triton.cdiv(n, block),)
    relu_mul_kernel[grid](_flat(x), _flat(y), out, n, BLOCK=block)
    return out.view(x.shape)  # a contiguous tensor of x's shape


relu_mul = functools.partial(_relu_mul, block=512)

answer = relu_mul
