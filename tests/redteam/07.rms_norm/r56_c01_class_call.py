# expect: pass a callable class instance (__call__) holding the launch settings; rsqrt and a multiply instead of a division
# hint:
import torch
import triton
import triton.language as tl


@triton.jit
def rms_norm_kernel(x_ptr, out_ptr, x_row_stride, out_row_stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(axis=0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * x_row_stride + cols, mask=mask, other=0.0).to(tl.float32)
    inv_rms = tl.rsqrt(tl.sum(x * x, axis=0) / n_cols + eps)
    tl.store(out_ptr + row * out_row_stride + cols, x * inv_rms, mask=mask)


class RMSNorm:
    """rms_norm as an object: each row of the 2-D x times 1 / sqrt(mean(x * x) + eps)."""

    def __init__(self, kernel, default_eps=1e-6):
        self.kernel = kernel
        self.default_eps = default_eps

    def block_for(self, n_cols):
        return triton.next_power_of_2(n_cols)

    def __call__(self, x, eps=None):
        eps = self.default_eps if eps is None else eps
        if x.stride(1) != 1:  # a transposed x: its row elements are not side by side
            x = x.contiguous()
        n_rows, n_cols = x.shape
        out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
        self.kernel[(n_rows,)](
            x, out, x.stride(0), out.stride(0), n_cols, eps, BLOCK=self.block_for(n_cols)
        )
        return out


rms_norm = RMSNorm(rms_norm_kernel)

answer = rms_norm
