# expect: pass a class with __call__; the kernel takes both strides of x, so no layout needs a copy
# hint:
import os

os.environ.setdefault("TRITON_INTERPRET", "1")  # before importing triton, as the notebook does

import torch
import triton
import triton.language as tl


@triton.jit
def rms_norm_kernel(
    x_ptr, out_ptr, x_row_stride, out_row_stride, n_cols, eps, x_col_stride, BLOCK: tl.constexpr
):
    row = tl.program_id(axis=0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    # x's elements wherever they are: rows x_row_stride apart, columns x_col_stride apart
    x = tl.load(x_ptr + row * x_row_stride + cols * x_col_stride, mask=mask, other=0.0)
    x = x.to(tl.float32)
    inv_rms = tl.rsqrt(tl.sum(x * x, axis=0) / n_cols + eps)
    tl.store(out_ptr + row * out_row_stride + cols, x * inv_rms, mask=mask)


class RMSNorm:
    """rms_norm as an object: rms_norm(x, eps) calls it."""

    def __init__(self, default_eps=1e-6):
        self.default_eps = default_eps

    def __call__(self, x, eps=None):
        eps = self.default_eps if eps is None else eps
        n_rows, n_cols = x.shape
        out = torch.empty(x.shape, dtype=x.dtype, device=x.device)  # contiguous, whatever x is
        rms_norm_kernel[(n_rows,)](
            x, out, x.stride(0), out.stride(0), n_cols, eps, x.stride(1),
            BLOCK=triton.next_power_of_2(n_cols),
        )
        return out


rms_norm = RMSNorm()
answer = rms_norm
