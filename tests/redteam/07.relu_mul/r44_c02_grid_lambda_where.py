# expect: pass a grid lambda reading BLOCK from the launch's meta-parameters, BLOCK=512, relu written as tl.where(x > 0, x, 0.0).
# hint: 
# name: relu_mul
import os

os.environ.setdefault("TRITON_INTERPRET", "1")  # as the exercise set-up cell does, before importing triton

import torch
import triton
import triton.language as tl


@triton.jit
def relu_mul_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    start = tl.program_id(0) * BLOCK
    idx = start + tl.arange(0, BLOCK)
    in_bounds = idx < n
    xv = tl.load(x_ptr + idx, mask=in_bounds)
    yv = tl.load(y_ptr + idx, mask=in_bounds)
    relu = tl.where(xv > 0, xv, 0.0)
    tl.store(out_ptr + idx, relu * yv, mask=in_bounds)


def relu_mul(x, y):
    """relu(x) * y, element by element, computed by relu_mul_kernel."""
    if not x.is_contiguous():
        x = x.contiguous()
    if not y.is_contiguous():
        y = y.contiguous()
    n = x.numel()
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    grid = lambda meta: (triton.cdiv(n, meta["BLOCK"]),)  # noqa: E731
    relu_mul_kernel[grid](x, y, out, n, BLOCK=512)
    return out
