# expect: pass a class wrapper, assert on x.dim(), int64 row offsets, tl.where zeroing the masked lanes before squaring
# hint: 
import os

os.environ["TRITON_INTERPRET"] = "1"

import torch
import triton
import triton.language as tl


@triton.jit
def rms_norm_kernel(x_ptr, out_ptr, x_row_stride, out_row_stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(axis=0).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    inside = cols < n_cols
    x = tl.load(x_ptr + row * x_row_stride + cols, mask=inside, other=0.0).to(tl.float32)
    x = tl.where(inside, x, 0.0)  # belt and braces
    sum_sq = tl.sum(x * x, axis=0)
    rms = tl.sqrt(sum_sq / n_cols + eps)
    tl.store(out_ptr + row * out_row_stride + cols, x / rms, mask=inside)


class RMSNorm:
    def __init__(self, eps=1e-6, min_block=16):
        self.eps = eps
        self.min_block = min_block

    def __call__(self, x, eps=None):
        assert x.dim() == 2, "rms_norm expects a 2-D tensor"
        eps = self.eps if eps is None else eps
        x = x.contiguous()
        rows, cols = x.shape
        out = x.new_empty(rows, cols)
        block = max(self.min_block, triton.next_power_of_2(cols))
        rms_norm_kernel[(rows,)](x, out, x.stride(0), out.stride(0), cols, eps, BLOCK=block)
        return out


_norm = RMSNorm()


def rms_norm(x, eps=1e-6):
    """Each row of the 2-D x divided by its root mean square, computed by rms_norm_kernel."""
    return _norm(x, eps=eps)


answer = rms_norm
