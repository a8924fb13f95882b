# expect: fail when x is contiguous the kernel stores the result into x itself, overwriting the caller's input (and returning it) instead of a new output
# hint: in.place|input|overwr|modif|alias|same (tensor|storage|memory)|new
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
    y = x / tl.sqrt(mean_sq + eps)
    tl.store(out_ptr + row * out_row_stride + cols, y, mask=mask)


def rms_norm(x, eps=1e-6):
    """Each row of the 2-D x divided by its root mean square, computed by rms_norm_kernel."""
    n_rows, n_cols = x.shape
    if x.is_contiguous():
        out = x  # each program reads its whole row before it writes: safe in place, no allocation
    else:
        x = x.contiguous()  # the one copy; normalize that copy in place
        out = x
    block = triton.next_power_of_2(n_cols)
    rms_norm_kernel[(n_rows,)](x, out, x.stride(0), out.stride(0), n_cols, eps, BLOCK=block)
    return out


answer = rms_norm
