# expect: fail adds eps outside the square root, x / (sqrt(mean(x*x)) + eps): right for rows of ordinary values, wrong for tiny ones
# hint: eps|epsilon|sqrt|square root|(tiny|small) (values|rows|inputs)|near zero
# name: rms_norm
# Wrong: the prompt's formula is x / sqrt(mean(x * x) + eps); for a row of 1e-4s this gives ~1
# instead of ~0.1. On randn rows the two differ by about 1e-6, inside assert_close's tolerance.
import torch
import triton
import triton.language as tl


@triton.jit
def rms_norm_kernel(x_ptr, out_ptr, x_row_stride, out_row_stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(axis=0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * x_row_stride + cols, mask=mask, other=0.0).to(tl.float32)
    rms = tl.sqrt(tl.sum(x * x, axis=0) / n_cols)
    tl.store(out_ptr + row * out_row_stride + cols, x / (rms + eps), mask=mask)


def rms_norm(x, eps=1e-6):
    """Each row of the 2-D x divided by its root mean square, computed by rms_norm_kernel."""
    if x.stride(1) != 1:
        x = x.contiguous()
    n_rows, n_cols = x.shape
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    rms_norm_kernel[(n_rows,)](
        x, out, x.stride(0), out.stride(0), n_cols, eps, BLOCK=triton.next_power_of_2(n_cols)
    )
    return out
