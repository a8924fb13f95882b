# expect: fail applies the relu with PyTorch (x.clamp(min=0)) and lets the kernel only multiply: relu(x) is written to memory and read back, 5 n floats moved, the unfused pattern the exercise replaces.
# hint: relu|fuse|clamp|once|pass|kernel
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
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x * y, mask=mask)


def relu_mul(x, y):
    """relu(x) * y, element by element, computed by relu_mul_kernel."""
    r = x.clamp(min=0).contiguous()
    y = y.contiguous()
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = r.numel()
    relu_mul_kernel[(triton.cdiv(n, 1024),)](r, y, out, n, BLOCK=1024)
    return out
