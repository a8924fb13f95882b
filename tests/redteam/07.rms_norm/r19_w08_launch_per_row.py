# expect: fail a Python loop launching the kernel once per row (grid of 1): n_rows launches instead of one grid of n_rows programs
# hint: (one|a|each) launch(es)? per row|launch(es|ed)?.{0,30}(loop|each row|per row|many|n_rows)|(python )?loop|grid|one (launch|kernel)|(number|count) of launches|n_rows programs
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
    n_rows, n_cols = x.shape
    out = torch.empty((n_rows, n_cols), dtype=x.dtype, device=x.device)
    block = triton.next_power_of_2(n_cols)
    for i in range(n_rows):
        row = x[i].contiguous()
        rms_norm_kernel[(1,)](row, out[i], 0, 0, n_cols, eps, BLOCK=block)
    return out


answer = rms_norm
