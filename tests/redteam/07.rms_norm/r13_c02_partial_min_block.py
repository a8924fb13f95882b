# expect: fail functools.partial binding a minimum block, tl.where for the masked lanes, a sliced x read in place; squares and sums in float16 (no float32 upcast): wrong since round 19's float16 case, which the prompt now names
# hint: float16|float32|overflow
import functools

import torch
import triton
import triton.language as tl


@triton.jit
def rms_norm_kernel(x_ptr, out_ptr, x_row_stride, out_row_stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(axis=0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * x_row_stride + cols, mask=mask)
    x = tl.where(mask, x, 0.0)  # whatever the masked lanes held, they add nothing
    mean_square = tl.sum(x * x, axis=0) / n_cols
    tl.store(out_ptr + row * out_row_stride + cols, x / tl.sqrt(mean_square + eps), mask=mask)


def _rms_norm(x, eps=1e-6, *, min_block):
    assert x.dim() == 2, "rms_norm takes a 2-D x"
    if x.stride(1) != 1:  # a transposed x: copy; a slice with unit column stride is read in place
        x = x.contiguous()
    n_rows, n_cols = x.shape
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    block = max(min_block, triton.next_power_of_2(n_cols))
    rms_norm_kernel[(n_rows,)](x, out, x.stride(0), out.stride(0), n_cols, eps, BLOCK=block)
    return out


rms_norm = functools.partial(_rms_norm, min_block=32)
answer = rms_norm
