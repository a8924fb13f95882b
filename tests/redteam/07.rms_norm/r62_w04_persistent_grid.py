# expect: fail a persistent grid of at most 8 programs that loop over the rows, not one program per row: right values, but rows beyond 8 share programs
# hint: grid|program|per row|one row|launch|persistent
import os

os.environ.setdefault("TRITON_INTERPRET", "1")  # before importing triton, as the notebook does

import torch
import triton
import triton.language as tl


NUM_PROGRAMS = 8  # a few long-lived programs, each walking over every NUM_PROGRAMS-th row


@triton.jit
def rms_norm_kernel(
    x_ptr, out_ptr, x_row_stride, out_row_stride, n_cols, eps, n_rows, BLOCK: tl.constexpr,
    STEP: tl.constexpr,
):
    first = tl.program_id(axis=0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    for row in tl.range(first, n_rows, STEP):
        x = tl.load(x_ptr + row * x_row_stride + cols, mask=mask, other=0.0).to(tl.float32)
        mean_square = tl.sum(x * x, axis=0) / n_cols
        tl.store(out_ptr + row * out_row_stride + cols, x / tl.sqrt(mean_square + eps), mask=mask)


def rms_norm(x, eps=1e-6):
    """Each row of the 2-D x divided by its root mean square, computed by rms_norm_kernel."""
    if x.stride(1) != 1:
        x = x.contiguous()
    n_rows, n_cols = x.shape
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    block = triton.next_power_of_2(n_cols)
    programs = min(n_rows, NUM_PROGRAMS)
    rms_norm_kernel[(programs,)](
        x, out, x.stride(0), out.stride(0), n_cols, eps, n_rows, BLOCK=block, STEP=programs
    )
    return out


answer = rms_norm
