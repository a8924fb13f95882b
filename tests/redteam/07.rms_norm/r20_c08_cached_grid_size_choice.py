# expect: pass grid from an lru_cache'd helper, block = max(16, next_power_of_2), pointer arithmetic via row base pointers
# hint: 
import functools
import os

os.environ["TRITON_INTERPRET"] = "1"

import torch
import triton
import triton.language as tl


@triton.jit
def rms_norm_kernel(x_ptr, out_ptr, x_row_stride, out_row_stride, n_cols, eps, BLOCK: tl.constexpr):
    row_id = tl.program_id(axis=0)
    in_row = x_ptr + row_id * x_row_stride
    out_row = out_ptr + row_id * out_row_stride
    idx = tl.arange(0, BLOCK)
    ok = idx < n_cols
    vals = tl.load(in_row + idx, mask=ok, other=0.0).to(tl.float32)
    sq = vals * vals
    mean_sq = tl.sum(sq, axis=0) / n_cols
    tl.store(out_row + idx, vals / tl.sqrt(mean_sq + eps), mask=ok)


@functools.lru_cache(maxsize=None)
def _grid_for(n_rows):
    return (n_rows,)


def rms_norm(x, eps=1e-6):
    """Each row of the 2-D x divided by its root mean square, computed by rms_norm_kernel."""
    assert x.dim() == 2
    if x.stride(-1) != 1:
        x = x.contiguous()
    n_rows, n_cols = x.size(0), x.size(1)
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    BLOCK = max(16, triton.next_power_of_2(n_cols))
    rms_norm_kernel[_grid_for(n_rows)](x, out, x.stride(0), out.stride(0), n_cols, eps, BLOCK=BLOCK)
    return out


answer = rms_norm
