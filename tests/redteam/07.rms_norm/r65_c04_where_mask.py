# expect: pass
# hint:
# name: rms_norm
# Right: the load has no other=, but tl.where(mask, x, 0.0) zeroes the masked lanes before
# squaring, whatever they held (undefined on a GPU, NaN under the watch); an equivalent form.
import torch
import triton
import triton.language as tl


@triton.jit
def rms_norm_kernel(x_ptr, out_ptr, x_row_stride, out_row_stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(axis=0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    raw = tl.load(x_ptr + row * x_row_stride + cols, mask=mask)
    x = tl.where(mask, raw.to(tl.float32), 0.0)
    mean_square = tl.sum(x * x, axis=0) / n_cols
    y = x / tl.sqrt(mean_square + eps)
    tl.store(out_ptr + row * out_row_stride + cols, y, mask=mask)


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
