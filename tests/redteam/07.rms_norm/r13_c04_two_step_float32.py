# expect: pass the sum of squares accumulated in float32 and cast back, a multiply by 1 / n_cols, every non-contiguous x copied, lambda grid
# hint: 
import torch
import triton
import triton.language as tl


@triton.jit
def rms_norm_kernel(x_ptr, out_ptr, x_row_stride, out_row_stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(axis=0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    raw = tl.load(x_ptr + row * x_row_stride + cols, mask=mask, other=0.0)
    x = raw.to(tl.float32)
    sum_sq = tl.sum(x * x, axis=0)
    mean_sq = sum_sq * (1.0 / n_cols)
    y = x / tl.sqrt(mean_sq + eps)
    tl.store(out_ptr + row * out_row_stride + cols, y.to(raw.dtype), mask=mask)


def rms_norm(x, eps=1e-6):
    """Each row of the 2-D x divided by its root mean square, computed by rms_norm_kernel."""
    n_rows, n_cols = x.shape
    if not x.is_contiguous():
        x = x.contiguous()
    out = x.new_empty((n_rows, n_cols))
    rms_norm_kernel[lambda meta: (n_rows,)](
        x, out, x.stride(0), out.stride(0), n_cols, float(eps), BLOCK=triton.next_power_of_2(n_cols)
    )
    return out


answer = rms_norm
