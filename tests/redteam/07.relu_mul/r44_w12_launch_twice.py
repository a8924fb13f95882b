# expect: fail launches the kernel twice (a "warm-up" launch to compile it, then the real one): the same result, but x and y are read twice and the output written twice.
# hint: once|launch|twice|pass
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
    x, y = x.contiguous(), y.contiguous()
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = x.numel()
    grid = (triton.cdiv(n, 1024),)
    relu_mul_kernel[grid](x, y, out, n, BLOCK=1024)  # warm-up: compiles the kernel
    relu_mul_kernel[grid](x, y, out, n, BLOCK=1024)
    return out
