# expect: pass rms_norm is a functools.partial binding the kernel into a general row-wise launcher; softmax-style copy only when columns are not side by side
# hint:
import functools
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
    x = tl.load(x_ptr + row * x_row_stride + cols, mask=mask, other=0.0).to(tl.float32)
    mean_square = tl.sum(x * x, axis=0) / n_cols  # the row's n_cols, not BLOCK
    tl.store(out_ptr + row * out_row_stride + cols, x / tl.sqrt(mean_square + eps), mask=mask)


def _row_wise(kernel, x, eps=1e-6):
    """One program per row of the 2-D x, a block as long as the row; a new contiguous output."""
    if x.stride(1) != 1:
        x = x.contiguous()  # the one copy: a row's elements side by side
    n_rows, n_cols = x.shape
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    kernel[(n_rows,)](
        x, out, x.stride(0), out.stride(0), n_cols, eps, BLOCK=triton.next_power_of_2(n_cols)
    )
    return out


rms_norm = functools.partial(_row_wise, rms_norm_kernel)  # rms_norm(x, eps=1e-6)
answer = rms_norm
