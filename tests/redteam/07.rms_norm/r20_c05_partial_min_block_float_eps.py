# expect: pass functools.partial over a helper with a block floor, eps passed as float(eps), explicit cast to the output dtype on store
# hint: 
import functools
import os

os.environ["TRITON_INTERPRET"] = "1"

import torch
import triton
import triton.language as tl


@triton.jit
def rms_norm_kernel(x_ptr, out_ptr, x_row_stride, out_row_stride, n_cols, eps, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    col = tl.arange(0, BLOCK)
    m = col < n_cols
    src = x_ptr + pid * x_row_stride + col
    v = tl.load(src, mask=m, other=0.0).to(tl.float32)
    mean_square = tl.sum(v * v, axis=0) / n_cols
    normed = v * tl.rsqrt(mean_square + eps)
    dst = out_ptr + pid * out_row_stride + col
    tl.store(dst, normed.to(out_ptr.dtype.element_ty), mask=m)


def _rms_norm(x, eps=1e-6, *, min_block=32):
    if not x.is_contiguous():
        x = x.contiguous()
    n_rows, n_cols = x.shape
    out = torch.empty(x.size(), dtype=x.dtype, device=x.device)
    if n_rows == 0 or n_cols == 0:
        return out
    block = max(min_block, triton.next_power_of_2(n_cols))
    rms_norm_kernel[(n_rows,)](x, out, x.stride(0), out.stride(0), n_cols, float(eps), BLOCK=block)
    return out


rms_norm = functools.partial(_rms_norm, min_block=32)

answer = rms_norm
