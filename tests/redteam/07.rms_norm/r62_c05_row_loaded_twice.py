# expect: pass loads each row twice, once for the sum of squares and once to divide (judged right, as round 51 judged r51_w09_reads_row_twice and rounds 19, 20 and 32 the chunked two-pass kernels)
# hint:
import os

os.environ.setdefault("TRITON_INTERPRET", "1")  # before importing triton, as the notebook does

import torch
import triton
import triton.language as tl


@triton.jit
def rms_norm_kernel(x_ptr, out_ptr, x_row_stride, out_row_stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(axis=0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    row_ptrs = x_ptr + row * x_row_stride + cols
    # first the row's mean square...
    squares = tl.load(row_ptrs, mask=mask, other=0.0).to(tl.float32)
    squares = squares * squares
    rms = tl.sqrt(tl.sum(squares, axis=0) / n_cols + eps)
    # ...then the row again, to divide it
    x = tl.load(row_ptrs, mask=mask, other=0.0).to(tl.float32)
    tl.store(out_ptr + row * out_row_stride + cols, x / rms, mask=mask)


def rms_norm(x, eps=1e-6):
    """Each row of the 2-D x divided by its root mean square, computed by rms_norm_kernel."""
    if x.stride(1) != 1:
        x = x.contiguous()
    n_rows, n_cols = x.shape
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    block = triton.next_power_of_2(n_cols)
    rms_norm_kernel[(n_rows,)](x, out, x.stride(0), out.stride(0), n_cols, eps, BLOCK=block)
    return out


answer = rms_norm
