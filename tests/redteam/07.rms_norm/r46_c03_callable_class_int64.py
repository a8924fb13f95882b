# expect: pass a callable object; 64-bit row offsets; reciprocal multiplied; strides passed as keywords
# hint:
import os

os.environ["TRITON_INTERPRET"] = "1"  # as the exercise's set-up cell does, before importing triton

import torch
import triton
import triton.language as tl


@triton.jit
def rms_norm_kernel(x_ptr, out_ptr, x_row_stride, out_row_stride, n_cols, eps, x_col_stride, BLOCK: tl.constexpr):
    row = tl.program_id(axis=0).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    keep = cols < n_cols
    x_row = x_ptr + row * x_row_stride
    out_row = out_ptr + row * out_row_stride
    x = tl.load(x_row + cols * x_col_stride, mask=keep, other=0.0).to(tl.float32)
    sum_sq = tl.sum(x * x, axis=0)
    mean_sq = sum_sq / n_cols
    scale = 1.0 / tl.sqrt(mean_sq + eps)
    tl.store(out_row + cols, x * scale, mask=keep)


class RMSNorm:
    """Stateless: every call sizes its own block and its own output."""

    def __call__(self, x, eps=1e-6):
        n_rows, n_cols = x.shape
        out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
        rms_norm_kernel[(n_rows,)](
            x,
            out,
            x_row_stride=x.stride(0),
            out_row_stride=out.stride(0),
            n_cols=n_cols,
            eps=float(eps),
            x_col_stride=x.stride(1),
            BLOCK=triton.next_power_of_2(n_cols),
        )
        return out


rms_norm = RMSNorm()
answer = rms_norm
