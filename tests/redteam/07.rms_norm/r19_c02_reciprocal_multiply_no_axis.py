# expect: pass tl.sum without axis (a 1-D block), mean as a multiply by 1/n_cols, reciprocal of sqrt, copy only when stride(1) != 1
# hint: 
import os

os.environ["TRITON_INTERPRET"] = "1"

import torch
import triton
import triton.language as tl


@triton.jit
def rms_norm_kernel(x_ptr, out_ptr, x_row_stride, out_row_stride, n_cols, eps, BLOCK: tl.constexpr):
    r = tl.program_id(0)
    j = tl.arange(0, BLOCK)
    keep = j < n_cols
    vals = tl.load(x_ptr + r * x_row_stride + j, mask=keep, other=0.0)
    vals = vals.to(tl.float32)
    ms = tl.sum(vals * vals) * (1.0 / n_cols)
    scale = 1.0 / tl.sqrt(ms + eps)
    tl.store(out_ptr + r * out_row_stride + j, vals * scale, mask=keep)


def rms_norm(x, eps=1e-6):
    """Each row of the 2-D x divided by its root mean square, computed by rms_norm_kernel."""
    assert x.dim() == 2, "rms_norm expects a 2-D tensor"
    src = x if x.stride(1) == 1 else x.contiguous()  # a row slice keeps its stride(0)
    rows, cols = src.shape
    out = src.new_empty((rows, cols))
    rms_norm_kernel[(rows,)](
        src, out, src.stride(0), out.stride(0), cols, float(eps), BLOCK=triton.next_power_of_2(cols)
    )
    return out


answer = rms_norm
