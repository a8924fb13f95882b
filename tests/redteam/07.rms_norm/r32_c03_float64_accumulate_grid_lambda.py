# expect: pass accumulates in float64, grid as a lambda, keeps a row slice (stride(1) == 1) without copying
# hint: 
import os

os.environ["TRITON_INTERPRET"] = "1"

import torch
import triton
import triton.language as tl


@triton.jit
def rms_norm_kernel(x_ptr, out_ptr, x_row_stride, out_row_stride, n_cols, eps, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    c = tl.arange(0, BLOCK)
    keep = c < n_cols
    vals = tl.load(x_ptr + pid.to(tl.int64) * x_row_stride + c, mask=keep, other=0.0)
    wide = vals.to(tl.float64)
    ms = tl.sum(wide * wide, axis=0) / n_cols
    denom = tl.sqrt(ms + eps)
    tl.store(out_ptr + pid.to(tl.int64) * out_row_stride + c, (wide / denom).to(tl.float32), mask=keep)


def rms_norm(x, eps=1e-6):
    assert x.dim() == 2
    src = x if x.stride(1) == 1 else x.contiguous()
    out = x.new_empty(x.shape)
    if not out.is_contiguous():
        out = out.contiguous()
    n_rows, n_cols = src.shape
    grid = lambda meta: (n_rows,)
    rms_norm_kernel[grid](src, out, src.stride(0), out.stride(0), n_cols, eps, BLOCK=triton.next_power_of_2(n_cols))
    return out


answer = rms_norm
