# expect: pass masked lanes zeroed with tl.where after the load instead of other=, the input always passed through x.contiguous() (a no-op when already contiguous)
# hint:
import os

os.environ.setdefault("TRITON_INTERPRET", "1")  # before importing triton, as the notebook does

import torch
import triton
import triton.language as tl


@triton.jit
def rms_norm_kernel(x_ptr, out_ptr, x_row_stride, out_row_stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(axis=0)
    cols = tl.arange(0, BLOCK)
    in_row = cols < n_cols
    raw = tl.load(x_ptr + row * x_row_stride + cols, mask=in_row)
    x = tl.where(in_row, raw.to(tl.float32), 0.0)  # whatever the masked lanes held, now 0
    squares = x * x
    rms = tl.sqrt(tl.sum(squares, axis=0) / n_cols + eps)
    tl.store(out_ptr + row * out_row_stride + cols, x / rms, mask=in_row)


def rms_norm(x, eps=1e-6):
    """Each row of the 2-D x divided by its root mean square, computed by rms_norm_kernel."""
    assert x.dim() == 2, "rms_norm takes a 2-D tensor"
    x = x.contiguous()  # returns x itself when it is contiguous already: no copy then
    n_rows, n_cols = x.shape
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    block = triton.next_power_of_2(n_cols)
    rms_norm_kernel[(n_rows,)](
        x, out, x.stride(0), out.stride(0), n_cols, eps, BLOCK=block, num_warps=8 if block >= 2048 else 4
    )
    return out


answer = rms_norm
