# expect: fail the output is made with torch.empty_like(x) and written through its own strides: values right, but for a transposed x the output is transposed too, not contiguous
# hint: contiguous|layout|stride|empty_like|transpos|torch\.empty\(x\.shape
import os

os.environ.setdefault("TRITON_INTERPRET", "1")  # before importing triton, as the notebook does

import torch
import triton
import triton.language as tl


@triton.jit
def rms_norm_kernel(
    x_ptr, out_ptr, x_row_stride, out_row_stride, n_cols, eps, x_col_stride, out_col_stride,
    BLOCK: tl.constexpr,
):
    row = tl.program_id(axis=0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * x_row_stride + cols * x_col_stride, mask=mask, other=0.0)
    x = x.to(tl.float32)
    mean_square = tl.sum(x * x, axis=0) / n_cols
    y = x / tl.sqrt(mean_square + eps)
    tl.store(out_ptr + row * out_row_stride + cols * out_col_stride, y, mask=mask)


def rms_norm(x, eps=1e-6):
    """Each row of the 2-D x divided by its root mean square, computed by rms_norm_kernel."""
    n_rows, n_cols = x.shape
    out = torch.empty_like(x)  # x's shape, dtype and device; the kernel takes both its strides
    block = triton.next_power_of_2(n_cols)
    rms_norm_kernel[(n_rows,)](
        x, out, x.stride(0), out.stride(0), n_cols, eps, x.stride(1), out.stride(1), BLOCK=block
    )
    return out


answer = rms_norm
