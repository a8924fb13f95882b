# expect: pass Keeps a row slice of a wider matrix as it is (rows stride(0) apart, no copy), computes row offsets in int64, and writes into a separate contiguous output; only a transposed layout is copied.
# hint:
# name: rms_norm
import torch
import triton
import triton.language as tl


@triton.jit
def rms_norm_kernel(x_ptr, out_ptr, x_row_stride, out_row_stride, n_cols, eps, BLOCK: tl.constexpr):
    r = tl.program_id(axis=0).to(tl.int64)
    c = tl.arange(0, BLOCK)
    keep = c < n_cols
    src = x_ptr + r * x_row_stride
    vals = tl.load(src + c, mask=keep, other=0.0)
    f = vals.to(tl.float32)
    total = tl.sum(f * f, axis=0)
    inv = 1.0 / tl.sqrt(total / n_cols + eps)
    tl.store(out_ptr + r * out_row_stride + c, f * inv, mask=keep)


def rms_norm(x, eps=1e-6):
    n_rows, n_cols = x.shape
    if n_cols > 1 and x.stride(1) != 1:  # a transpose: row elements are not side by side
        x = x.contiguous()
    result = x.new_empty((n_rows, n_cols))  # a fresh contiguous tensor, x's dtype and device
    if n_rows == 0:
        return result
    rms_norm_kernel[(n_rows,)](
        x, result, x.stride(0), result.stride(0), n_cols, eps, BLOCK=triton.next_power_of_2(n_cols)
    )
    return result


answer = rms_norm
