# expect: pass loops over each row in chunks of at most 64 columns (two passes: sum of squares, then scale) instead of one block per row; float32 sums, masked
# hint: 
import os

os.environ["TRITON_INTERPRET"] = "1"

import torch
import triton
import triton.language as tl


@triton.jit
def rms_norm_kernel(x_ptr, out_ptr, x_row_stride, out_row_stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    x_row = x_ptr + row * x_row_stride
    o_row = out_ptr + row * out_row_stride
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        v = tl.load(x_row + cols, mask=cols < n_cols, other=0.0).to(tl.float32)
        acc += v * v
    scale = 1.0 / tl.sqrt(tl.sum(acc, axis=0) / n_cols + eps)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        m = cols < n_cols
        v = tl.load(x_row + cols, mask=m, other=0.0).to(tl.float32)
        tl.store(o_row + cols, v * scale, mask=m)


def rms_norm(x, eps=1e-6):
    if x.stride(-1) != 1:
        x = x.contiguous()
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    block = min(64, triton.next_power_of_2(x.shape[1]))
    rms_norm_kernel[(x.shape[0],)](x, out, x.stride(0), out.stride(0), x.shape[1], eps, BLOCK=block)
    return out


answer = rms_norm
