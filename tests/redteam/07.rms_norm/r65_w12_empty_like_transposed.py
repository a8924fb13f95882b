# expect: fail makes the output with torch.empty_like(x) and writes it through both its strides: right values, but for a transposed x the output is transposed too, not contiguous
# hint: contiguous|empty_like|layout|memory format|transpos|torch\.empty\(x\.shape
# name: rms_norm
# Wrong: the prompt makes the output with torch.empty(x.shape, ...), contiguous whatever x's
# layout; empty_like keeps a transposed x's strides (slices and every other column come out fine).
import torch
import triton
import triton.language as tl


@triton.jit
def rms_norm_kernel(
    x_ptr, out_ptr, x_row_stride, x_col_stride, out_row_stride, out_col_stride, n_cols, eps,
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
    out = torch.empty_like(x)  # x's shape, dtype and device; strides passed below: no copy of x
    rms_norm_kernel[(n_rows,)](
        x, out, x.stride(0), x.stride(1), out.stride(0), out.stride(1), n_cols, eps,
        BLOCK=triton.next_power_of_2(n_cols),
    )
    return out
