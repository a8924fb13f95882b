# expect: pass both strides of x and of out passed; mean as sum times 1/n; eps converted with float(); bfloat16-safe
# hint:
import os

os.environ["TRITON_INTERPRET"] = "1"  # as the exercise's set-up cell does, before importing triton

import torch
import triton
import triton.language as tl


@triton.jit
def rms_norm_kernel(
    x_ptr, out_ptr, x_row_stride, out_row_stride, n_cols, eps,
    x_col_stride, out_col_stride, BLOCK: tl.constexpr,
):
    r = tl.program_id(axis=0)
    c = tl.arange(0, BLOCK)
    m = c < n_cols
    a = tl.load(x_ptr + r * x_row_stride + c * x_col_stride, mask=m, other=0.0).to(tl.float32)
    ms = tl.sum(a * a, axis=0) * (1.0 / n_cols)
    denom = tl.sqrt(ms + eps)
    tl.store(out_ptr + r * out_row_stride + c * out_col_stride, a / denom, mask=m)


def rms_norm(x, eps=1e-6):
    """Each row of the 2-D x divided by its root mean square, computed by rms_norm_kernel."""
    (n_rows, n_cols), (srow, scol) = x.shape, x.stride()
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    orow, ocol = out.stride()
    rms_norm_kernel[(n_rows,)](
        x, out, srow, orow, n_cols, float(eps), scol, ocol, BLOCK=triton.next_power_of_2(n_cols)
    )
    return out


answer = rms_norm
