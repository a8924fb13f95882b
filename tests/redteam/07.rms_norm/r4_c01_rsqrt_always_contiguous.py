# expect: pass tl.rsqrt of the mean plus eps, x always made contiguous, a 1-row-per-program loop over a grid lambda
# hint: 
import os
os.environ["TRITON_INTERPRET"] = "1"
import torch
import triton
import triton.language as tl

@triton.jit
def rms_norm_kernel(x_ptr, out_ptr, x_row_stride, out_row_stride, n_cols, eps, BLOCK: tl.constexpr):
    r = tl.program_id(axis=0)
    offs = tl.arange(0, BLOCK)
    keep = offs < n_cols
    v = tl.load(x_ptr + r * x_row_stride + offs, mask=keep, other=0.0)
    v32 = v.to(tl.float32)
    inv = tl.rsqrt(tl.sum(v32 * v32, axis=0) / n_cols + eps)
    tl.store(out_ptr + r * out_row_stride + offs, v32 * inv, mask=keep)


def answer(x, eps=1e-6):
    xc = x.contiguous()
    out = torch.empty_like(xc)
    rows, cols = xc.shape
    block = triton.next_power_of_2(cols)
    rms_norm_kernel[lambda meta: (rows,)](xc, out, xc.stride(0), out.stride(0), cols, eps, BLOCK=block)
    return out
