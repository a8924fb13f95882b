# expect: fail the block is capped at 1024 lanes (for the registers), with no loop: rows longer than 1024 columns sum only their first 1024 squares and their tail is never written
# hint: block|long|length|column|cols|next_power|whole row|row.s end|tail
import os

os.environ.setdefault("TRITON_INTERPRET", "1")  # before importing triton, as the notebook does

import torch
import triton
import triton.language as tl


MAX_BLOCK = 1024  # more lanes than this spill out of a program's registers


@triton.jit
def rms_norm_kernel(x_ptr, out_ptr, x_row_stride, out_row_stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(axis=0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * x_row_stride + cols, mask=mask, other=0.0).to(tl.float32)
    mean_square = tl.sum(x * x, axis=0) / n_cols
    tl.store(out_ptr + row * out_row_stride + cols, x / tl.sqrt(mean_square + eps), mask=mask)


def rms_norm(x, eps=1e-6):
    """Each row of the 2-D x divided by its root mean square, computed by rms_norm_kernel."""
    if x.stride(1) != 1:
        x = x.contiguous()
    n_rows, n_cols = x.shape
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    block = min(triton.next_power_of_2(n_cols), MAX_BLOCK)
    rms_norm_kernel[(n_rows,)](x, out, x.stride(0), out.stride(0), n_cols, eps, BLOCK=block)
    return out


answer = rms_norm
