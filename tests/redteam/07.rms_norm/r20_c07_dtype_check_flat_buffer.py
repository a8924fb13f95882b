# expect: pass dtype check, output as a flat buffer viewed to (rows, cols), x.reshape after contiguous, mean as sum * (1 / n_cols)
# hint: 
import os

os.environ["TRITON_INTERPRET"] = "1"

import torch
import triton
import triton.language as tl

_FLOATS = (torch.float16, torch.bfloat16, torch.float32, torch.float64)


@triton.jit
def rms_norm_kernel(x_ptr, out_ptr, x_row_stride, out_row_stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(axis=0)
    offsets = tl.arange(0, BLOCK)
    mask = offsets < n_cols
    xs = tl.load(x_ptr + row * x_row_stride + offsets, mask=mask, other=0.0).to(tl.float32)
    inv_n = 1.0 / n_cols
    mean_sq = tl.sum(xs * xs, axis=0) * inv_n
    inv_rms = tl.rsqrt(mean_sq + eps)
    tl.store(out_ptr + row * out_row_stride + offsets, xs * inv_rms, mask=mask)


def rms_norm(x, eps=1e-6):
    """Each row of the 2-D x divided by its root mean square, computed by rms_norm_kernel."""
    if x.dtype not in _FLOATS:
        raise TypeError(f"rms_norm needs a floating-point x, got {x.dtype}")
    if x.ndim != 2:
        raise ValueError("x must be 2-D")
    n_rows, n_cols = x.shape
    xc = x.contiguous().reshape(n_rows, n_cols)
    out = torch.empty(n_rows * n_cols, dtype=x.dtype, device=x.device).view(n_rows, n_cols)
    block = max(1, triton.next_power_of_2(n_cols))
    rms_norm_kernel[(n_rows,)](xc, out, xc.stride(0), out.stride(0), n_cols, eps, BLOCK=block)
    return out


answer = rms_norm
