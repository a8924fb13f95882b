# expect: pass
# hint:
# name: rms_norm
# Right: rms_norm is a functools.partial of a general launcher; the kernel multiplies by
# tl.rsqrt instead of dividing by tl.sqrt, and copies x only when its columns are not side by side.
import functools

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


def _row_wise(kernel, x, eps=1e-6, num_warps=4):
    if x.stride(1) != 1:
        x = x.contiguous()  # the kernel reads a row's elements side by side
    n_rows, n_cols = x.shape
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    kernel[(n_rows,)](
        x, out, x.stride(0), out.stride(0), n_cols, eps,
        BLOCK=triton.next_power_of_2(n_cols), num_warps=num_warps,
    )
    return out


rms_norm = functools.partial(_row_wise, rms_norm_kernel)
