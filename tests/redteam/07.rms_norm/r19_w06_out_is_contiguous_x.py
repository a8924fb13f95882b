# expect: fail out = x.contiguous() is x itself for a contiguous x: the kernel overwrites the caller's input in place
# hint: (in.place|overwr|mutat|modif|clobber|chang).{0,40}(input|\bx\b|caller)|out (is|=) x|same (tensor|memory|storage)|contiguous\(\).{0,30}(not a copy|no copy|itself|same)|alias
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
    x = x.contiguous()
    out = x.contiguous()  # a contiguous buffer of x's shape and dtype for the result
    n_rows, n_cols = x.shape
    rms_norm_kernel[(n_rows,)](x, out, x.stride(0), out.stride(0), n_cols, eps, BLOCK=triton.next_power_of_2(n_cols))
    return out


answer = rms_norm
