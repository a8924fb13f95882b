# expect: fail normalizes each column (mean over dim 0) instead of each row: runs the kernel on x.t()
# hint: column|dim(ension)?\s*=?\s*0|wrong (axis|dim)|axis|\.t\(\)|transpos|over (the )?rows|per row|each row
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
    mean_square = tl.sum(x * x, axis=0) / n_cols
    y = x / tl.sqrt(mean_square + eps)
    tl.store(out_ptr + row * out_row_stride + cols, y, mask=mask)


def rms_norm(x, eps=1e-6):
    """Each row of the 2-D x divided by its root mean square, computed by rms_norm_kernel."""
    # the mean runs down the rows, one program per feature (column)
    xt = x.t().contiguous()
    n_feat, n_rows = xt.shape
    out_t = torch.empty(xt.shape, dtype=x.dtype, device=x.device)
    rms_norm_kernel[(n_feat,)](xt, out_t, xt.stride(0), out_t.stride(0), n_rows, eps, BLOCK=triton.next_power_of_2(n_rows))
    return out_t.t().contiguous()


answer = rms_norm
