# expect: fail to avoid copying a slice of a wider matrix's columns, it launches the kernel once per row (many launches) instead of once
# hint: launch|once|one kernel|kernel calls|per row|loop|number of (launches|kernels)
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
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    rows_side_by_side = x.dim() == 2 and x.stride(1) == 1 and y.stride(1) == 1
    if rows_side_by_side and not (x.is_contiguous() and y.is_contiguous()):
        # each row's elements are at ptr + i: run the kernel on the rows, no copy of x or y
        n_cols = x.shape[1]
        grid = (triton.cdiv(n_cols, block),)
        for r in range(x.shape[0]):
            relu_mul_kernel[grid](x[r], y[r], out[r], n_cols, BLOCK=block)
        return out
    x, y = x.contiguous(), y.contiguous()  # the kernel assumes element i at ptr + i
    n = x.numel()
    grid = (triton.cdiv(n, block),)
    relu_mul_kernel[grid](x, y, out, n, BLOCK=block)
    return out


answer = relu_mul
