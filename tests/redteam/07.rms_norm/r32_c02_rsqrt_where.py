# expect: pass uses tl.where(mask, x, 0) instead of other=, multiplies by tl.rsqrt, output from empty_like of a contiguous x
# hint: 
import os

os.environ["TRITON_INTERPRET"] = "1"

import torch
import triton
import triton.language as tl


@triton.jit
def rms_norm_kernel(x_ptr, out_ptr, x_row_stride, out_row_stride, n_cols, eps, BLOCK: tl.constexpr):
    r = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    in_row = offs < n_cols
    v = tl.load(x_ptr + r * x_row_stride + offs, mask=in_row)
    v = tl.where(in_row, v.to(tl.float32), 0.0)
    inv = tl.rsqrt(tl.sum(v * v, axis=0) / n_cols + eps)
    tl.store(out_ptr + r * out_row_stride + offs, v * inv, mask=in_row)


def rms_norm(x, eps=1e-6):
    x = x.contiguous()
    out = torch.empty_like(x)
    rows, cols = x.shape
    rms_norm_kernel[(rows,)](
        x, out, x.stride(0), out.stride(0), cols, eps, BLOCK=triton.next_power_of_2(cols)
    )
    return out


answer = rms_norm
