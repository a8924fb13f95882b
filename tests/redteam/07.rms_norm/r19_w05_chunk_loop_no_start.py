# expect: fail loops over a long row in chunks of at most 256 columns but forgets the chunk's start: rows longer than the block re-read the first chunk
# hint: (chunk|loop|start|offset).{0,40}(start|advance|offset|first)|longer than (the |a )?block|long rows?|rows? (of|longer|wider)|more than 256|start \+
import os

os.environ["TRITON_INTERPRET"] = "1"

import torch
import triton
import triton.language as tl

MAX_BLOCK = 256


@triton.jit
def rms_norm_kernel(x_ptr, out_ptr, x_row_stride, out_row_stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(axis=0)
    x_row = x_ptr + row * x_row_stride
    out_row = out_ptr + row * out_row_stride
    acc = 0.0
    for start in range(0, n_cols, BLOCK):
        cols = tl.arange(0, BLOCK)
        mask = cols < n_cols
        v = tl.load(x_row + cols, mask=mask, other=0.0).to(tl.float32)
        acc += tl.sum(v * v, axis=0)
    inv_rms = 1.0 / tl.sqrt(acc / n_cols + eps)
    for start in range(0, n_cols, BLOCK):
        cols = tl.arange(0, BLOCK)
        mask = cols < n_cols
        v = tl.load(x_row + cols, mask=mask, other=0.0).to(tl.float32)
        tl.store(out_row + cols, v * inv_rms, mask=mask)


def rms_norm(x, eps=1e-6):
    """Each row of the 2-D x divided by its root mean square, computed by rms_norm_kernel."""
    if x.stride(1) != 1:
        x = x.contiguous()
    n_rows, n_cols = x.shape
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    block = min(MAX_BLOCK, triton.next_power_of_2(n_cols))  # registers are limited
    rms_norm_kernel[(n_rows,)](x, out, x.stride(0), out.stride(0), n_cols, eps, BLOCK=block)
    return out


answer = rms_norm
