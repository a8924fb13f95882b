# expect: fail eps added after the square root, x / (sqrt(mean) + eps): wrong for tiny rows
# hint: eps|epsilon
import os

os.environ["TRITON_INTERPRET"] = "1"  # as the exercise's set-up cell does, before importing triton

import torch
import triton
import triton.language as tl


@triton.jit
def rms_norm_kernel(x_ptr, out_ptr, x_row_stride, x_col_stride, out_row_stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(axis=0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * x_row_stride + cols * x_col_stride, mask=mask, other=0.0).to(tl.float32)
    rms = tl.sqrt(tl.sum(x * x, axis=0) / n_cols)
    tl.store(out_ptr + row * out_row_stride + cols, x / (rms + eps), mask=mask)


def rms_norm(x, eps=1e-6):
    """Each row of the 2-D x divided by its root mean square, computed by rms_norm_kernel."""
    n_rows, n_cols = x.shape
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    block = triton.next_power_of_2(n_cols)
    rms_norm_kernel[(n_rows,)](x, out, x.stride(0), x.stride(1), out.stride(0), n_cols, eps, BLOCK=block)
    return out


answer = rms_norm
