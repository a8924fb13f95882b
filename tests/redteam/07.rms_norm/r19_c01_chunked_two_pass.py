# expect: pass a loop over each row in chunks of at most 128 columns (two reads of the row), float32 sum, any row length
# hint: 
import os

os.environ["TRITON_INTERPRET"] = "1"

import torch
import triton
import triton.language as tl

MAX_BLOCK = 128


@triton.jit
def rms_norm_kernel(x_ptr, out_ptr, x_row_stride, out_row_stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(axis=0).to(tl.int64)
    x_row = x_ptr + row * x_row_stride
    out_row = out_ptr + row * out_row_stride
    total = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):  # pass 1: the sum of squares
        cols = start + tl.arange(0, BLOCK)
        v = tl.load(x_row + cols, mask=cols < n_cols, other=0.0).to(tl.float32)
        total += v * v
    inv_rms = 1.0 / tl.sqrt(tl.sum(total, axis=0) / n_cols + eps)
    for start in range(0, n_cols, BLOCK):  # pass 2: scale and write
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n_cols
        v = tl.load(x_row + cols, mask=mask, other=0.0).to(tl.float32)
        tl.store(out_row + cols, (v * inv_rms).to(out_ptr.dtype.element_ty), mask=mask)


def rms_norm(x, eps=1e-6):
    """Each row of the 2-D x divided by its root mean square, computed by rms_norm_kernel."""
    if x.stride(1) != 1:
        x = x.contiguous()
    n_rows, n_cols = x.shape
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    if n_rows == 0 or n_cols == 0:
        return out
    block = min(MAX_BLOCK, triton.next_power_of_2(n_cols))
    rms_norm_kernel[(n_rows,)](x, out, x.stride(0), out.stride(0), n_cols, eps, BLOCK=block)
    return out


answer = rms_norm
