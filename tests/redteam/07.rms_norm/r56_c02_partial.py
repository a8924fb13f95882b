# expect: pass a generic row-wise launcher bound to the kernel with functools.partial; the row read once through a base pointer per row
# hint:
# name: rms_norm
import functools

import torch
import triton
import triton.language as tl


@triton.jit
def rms_norm_kernel(x_ptr, out_ptr, x_row_stride, out_row_stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(axis=0).to(tl.int64)  # 64-bit row offsets
    x_row = x_ptr + row * x_row_stride
    out_row = out_ptr + row * out_row_stride
    offs = tl.arange(0, BLOCK)
    keep = offs < n_cols
    v = tl.load(x_row + offs, mask=keep, other=0.0)
    v = v.to(tl.float32)
    ms = tl.sum(v * v, axis=0) / n_cols
    tl.store(out_row + offs, v / tl.sqrt(ms + eps), mask=keep)


def _launch_rowwise(x, eps=1e-6, *, kernel):
    """Launch a one-program-per-row kernel over the 2-D x; returns the new contiguous output."""
    x = x if x.stride(1) == 1 else x.contiguous()
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    kernel[(x.shape[0],)](
        x, out, x.stride(0), out.stride(0), x.shape[1], eps, BLOCK=triton.next_power_of_2(x.shape[1])
    )
    return out


rms_norm = functools.partial(_launch_rowwise, kernel=rms_norm_kernel)
