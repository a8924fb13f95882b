# expect: pass functools.partial over a general function; tl.where zeroes masked lanes; rsqrt; a block of at least 16
# hint:
import functools
import os

os.environ["TRITON_INTERPRET"] = "1"  # as the exercise's set-up cell does, before importing triton

import torch
import triton
import triton.language as tl


@triton.jit
def rms_norm_kernel(x_ptr, out_ptr, x_row_stride, x_col_stride, out_row_stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    inside = offs < n_cols
    v = tl.load(x_ptr + row * x_row_stride + offs * x_col_stride, mask=inside).to(tl.float32)
    v = tl.where(inside, v, 0.0)  # whatever the masked lanes hold, they add nothing
    inv_rms = tl.rsqrt(tl.sum(v * v, axis=0) / n_cols + eps)
    tl.store(out_ptr + row * out_row_stride + offs, v * inv_rms, mask=inside)


def _rms_norm_general(x, eps=1e-6, *, min_block=16):
    if x.dim() != 2:
        raise ValueError(f"expected a 2-D tensor, got {x.dim()}-D")
    rows, cols = x.shape
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    block = max(min_block, triton.next_power_of_2(cols))  # at least as long as the row
    rms_norm_kernel[(rows,)](x, out, *x.stride(), out.stride(0), cols, eps, BLOCK=block)
    return out


rms_norm = functools.partial(_rms_norm_general, min_block=16)
answer = rms_norm
