# expect: pass masked lanes loaded without other= and zeroed with tl.where before the sum, division by sqrt, keyword arguments and a lambda grid
# hint: 
import os

os.environ["TRITON_INTERPRET"] = "1"

import torch
import triton
import triton.language as tl


@triton.jit
def rms_norm_kernel(x_ptr, out_ptr, x_row_stride, out_row_stride, n_cols, eps, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    offs = tl.arange(0, BLOCK)
    valid = offs < n_cols
    row = tl.load(x_ptr + pid * x_row_stride + offs, mask=valid).to(tl.float32)  # no other=: see the where
    squares = tl.where(valid, row * row, 0.0)  # the masked lanes add nothing
    denom = tl.sqrt(tl.sum(squares, axis=0) / n_cols + eps)
    tl.store(out_ptr + pid * out_row_stride + offs, row / denom, mask=valid)


def rms_norm(x, eps=1e-6):
    """Each row of the 2-D x divided by its root mean square, computed by rms_norm_kernel."""
    x = x.contiguous()
    out = torch.empty_like(x)  # x is contiguous here, so out is as well
    n_rows, n_cols = x.shape
    grid = lambda meta: (n_rows,)  # noqa: E731
    rms_norm_kernel[grid](
        x_ptr=x,
        out_ptr=out,
        x_row_stride=x.stride(0),
        out_row_stride=out.stride(0),
        n_cols=n_cols,
        eps=eps,
        BLOCK=triton.next_power_of_2(n_cols),
    )
    return out


answer = rms_norm
