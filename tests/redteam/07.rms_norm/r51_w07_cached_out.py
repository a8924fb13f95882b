# expect: fail keeps the output tensor between calls and reuses it for the same shape and dtype: a second call overwrites the result the first returned
# hint: new tensor|same tensor|reus|alias|earlier|previous|between calls|overwr|state
import torch
import triton
import triton.language as tl

_out_cache = {}


@triton.jit
def rms_norm_kernel(x_ptr, out_ptr, x_row_stride, out_row_stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(axis=0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * x_row_stride + cols, mask=mask, other=0.0).to(tl.float32)
    mean_sq = tl.sum(x * x, axis=0) / n_cols
    tl.store(out_ptr + row * out_row_stride + cols, x / tl.sqrt(mean_sq + eps), mask=mask)


def rms_norm(x, eps=1e-6):
    if x.stride(1) != 1:
        x = x.contiguous()
    n_rows, n_cols = x.shape
    key = (n_rows, n_cols, x.dtype, x.device)
    out = _out_cache.get(key)
    if out is None:  # allocate once per shape, as a caching allocator would
        out = _out_cache[key] = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    block = triton.next_power_of_2(n_cols)
    rms_norm_kernel[(n_rows,)](x, out, x.stride(0), out.stride(0), n_cols, eps, BLOCK=block)
    return out


answer = rms_norm
