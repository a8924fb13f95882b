# expect: pass
# hint:
# name: rms_norm
# Right: a callable class instance; the kernel takes the column stride too, so a transposed,
# a sliced or an every-other-column x is read in place, with no copy at all (the prompt allows it).
import torch
import triton
import triton.language as tl


@triton.jit
def rms_norm_kernel(
    x_ptr, out_ptr, x_row_stride, x_col_stride, out_row_stride, n_cols, eps, BLOCK: tl.constexpr
):
    row = tl.program_id(axis=0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * x_row_stride + cols * x_col_stride, mask=mask, other=0.0)
    x = x.to(tl.float32)
    mean_square = tl.sum(x * x, axis=0) / n_cols
    tl.store(out_ptr + row * out_row_stride + cols, x / tl.sqrt(mean_square + eps), mask=mask)


class RMSNorm:
    """rms_norm as an object: call it like the function."""

    def __init__(self, kernel):
        self.kernel = kernel

    def __call__(self, x, eps=1e-6):
        n_rows, n_cols = x.shape
        out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
        block = triton.next_power_of_2(n_cols)
        self.kernel[(n_rows,)](
            x, out, x.stride(0), x.stride(1), out.stride(0), n_cols, eps, BLOCK=block
        )
        return out


rms_norm = RMSNorm(rms_norm_kernel)
