# expect: fail eps used as a floor, sqrt(max(mean, eps)), instead of added, sqrt(mean + eps): rows of tiny values come out wrong
# hint: eps.{0,60}(add|plus|\+|max|clamp|floor|instead)|(max|clamp|floor|maximum).{0,40}eps|mean ?\+ ?eps|tiny|small (values|rows)
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
    x = tl.load(x_ptr + row * x_row_stride + cols, mask=mask, other=0.0).to(tl.float32)
    mean_sq = tl.sum(x * x, axis=0) / n_cols
    rms = tl.sqrt(tl.maximum(mean_sq, eps))  # never divide by less than sqrt(eps)
    tl.store(out_ptr + row * out_row_stride + cols, x / rms, mask=mask)


def rms_norm(x, eps=1e-6):
    """Each row of the 2-D x divided by its root mean square, computed by rms_norm_kernel."""
    if x.stride(1) != 1:
        x = x.contiguous()
    n_rows, n_cols = x.shape
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    rms_norm_kernel[(n_rows,)](x, out, x.stride(0), out.stride(0), n_cols, eps, BLOCK=triton.next_power_of_2(n_cols))
    return out


answer = rms_norm
