# expect: pass flattens the (made contiguous) inputs with .view(-1), writes a 1-D output made by torch.empty(n, dtype=x.dtype), returns its .view(x.shape).
# hint: 
# name: relu_mul
import os

os.environ.setdefault("TRITON_INTERPRET", "1")  # as the exercise set-up cell does, before importing triton

import torch
import triton
import triton.language as tl


@triton.jit
def relu_mul_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, tl.maximum(x, 0.0) * y, mask=mask)


def relu_mul(x, y):
    """relu(x) * y, element by element, computed by relu_mul_kernel."""
    shape = x.shape
    x_flat = x.contiguous().view(-1)  # a view of a contiguous tensor: no copy
    y_flat = y.contiguous().view(-1)
    n = x_flat.numel()
    out_flat = torch.empty(n, dtype=x.dtype, device=x.device)
    relu_mul_kernel[(triton.cdiv(n, 2048),)](x_flat, y_flat, out_flat, n, BLOCK=2048)
    return out_flat.view(shape)  # the same memory, x's shape, contiguous
