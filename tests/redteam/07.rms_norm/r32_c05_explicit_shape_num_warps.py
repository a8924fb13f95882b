# expect: pass sum of squares via tl.sum of x*x with other=0, then multiplies by the reciprocal; output torch.empty((rows, cols)), num_warps chosen by size
# hint: 
import os

os.environ["TRITON_INTERPRET"] = "1"

import torch
import triton
import triton.language as tl


@triton.jit
def rms_norm_kernel(x_ptr, out_ptr, x_row_stride, out_row_stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(axis=0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    ptrs = x_ptr + row * x_row_stride + cols
    x = tl.load(ptrs, mask=mask, other=0.0).to(tl.float32)
    ss = tl.sum(x * x, axis=0)
    r = 1.0 / tl.sqrt(ss / n_cols + eps)
    tl.store(out_ptr + row * out_row_stride + cols, x * r, mask=mask)


def rms_norm(x, eps=1e-6):
    rows, cols = x.shape
    if not x.is_contiguous():
        x = x.contiguous()
    out = torch.empty((rows, cols), dtype=x.dtype, device=x.device)
    BLOCK = triton.next_power_of_2(cols)
    rms_norm_kernel[(rows,)](x, out, x.stride(0), out.stride(0), cols, eps, BLOCK=BLOCK, num_warps=8 if BLOCK >= 2048 else 4)
    return out


answer = rms_norm
