# expect: pass extra checks the prompt allows (same shape, same device, floating dtypes), output from torch.empty_like of the contiguous x with contiguous_format.
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
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, tl.maximum(x, 0.0) * y, mask=mask)


def relu_mul(x, y):
    """relu(x) * y, element by element, computed by relu_mul_kernel."""
    if x.shape != y.shape:
        raise ValueError(f"relu_mul needs tensors of one shape, got {tuple(x.shape)} and {tuple(y.shape)}")
    if x.device != y.device:
        raise ValueError(f"relu_mul needs tensors on one device, got {x.device} and {y.device}")
    if not (x.is_floating_point() and y.is_floating_point()):
        raise TypeError(f"relu_mul needs floating-point tensors, got {x.dtype} and {y.dtype}")
    x = x.contiguous()
    y = y.contiguous()
    out = torch.empty_like(x, memory_format=torch.contiguous_format)
    n = x.numel()
    relu_mul_kernel[(triton.cdiv(n, 128),)](x, y, out, n, BLOCK=128)
    return out
