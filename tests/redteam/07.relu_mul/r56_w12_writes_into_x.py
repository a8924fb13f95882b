# expect: fail stores the result into x.contiguous(), believing it a private copy: for a contiguous x that is x itself, so the caller's x is overwritten and returned instead of a new tensor
# hint: overwr|in.place|input|modif|alias|new tensor|x itself|clobber|mutat
import torch
import triton
import triton.language as tl


@triton.jit
def relu_mul_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, tl.maximum(x, 0.0) * y, mask=mask)


def relu_mul(x, y, block=1024):
    out = x.contiguous()  # our own contiguous copy of x, in x's dtype: write the result over it
    y = y.contiguous()
    n = out.numel()
    relu_mul_kernel[(triton.cdiv(n, block),)](out, y, out, n, BLOCK=block)
    return out


answer = relu_mul
