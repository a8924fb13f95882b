# expect: fail inputs flattened with reshape(-1) instead of made contiguous: a strided 1-D input (every other element of a longer vector) is returned as is by reshape, so the kernel reads the wrong elements
# hint: contiguous|stride|layout|every other|reshape|not at ptr|flatten
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
    # flatten to the kernel's element i at ptr + i: reshape copies whatever cannot be viewed flat
    x_flat, y_flat = x.reshape(-1), y.reshape(-1)
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = x.numel()
    grid = (triton.cdiv(n, block),)
    relu_mul_kernel[grid](x_flat, y_flat, out, n, BLOCK=block)
    return out


answer = relu_mul
