# expect: pass a class with __call__, tl.rsqrt and a multiply, a contiguous copy of every input
# hint: 
import torch
import triton
import triton.language as tl


@triton.jit
def rms_norm_kernel(x_ptr, out_ptr, x_row_stride, out_row_stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    inside = offs < n_cols
    v = tl.load(x_ptr + row * x_row_stride + offs, mask=inside, other=0.0).to(tl.float32)
    inv_rms = tl.rsqrt(tl.sum(v * v, axis=0) / n_cols + eps)
    tl.store(out_ptr + row * out_row_stride + offs, v * inv_rms, mask=inside)


class RMSNorm:
    """x / sqrt(mean(x * x) + eps) row by row, one program per row."""

    def __call__(self, x, eps=1e-6):
        x = x.contiguous()  # whatever the layout: rows of side-by-side elements
        rows, cols = x.shape
        out = torch.empty((rows, cols), dtype=x.dtype, device=x.device)
        if rows == 0:
            return out
        rms_norm_kernel[(rows,)](
            x, out, x.stride(0), out.stride(0), cols, eps, BLOCK=triton.next_power_of_2(cols)
        )
        return out


rms_norm = RMSNorm()
answer = rms_norm
