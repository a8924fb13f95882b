# expect: fail writes the result into x in place and returns it: the caller's x is overwritten
# hint: stored into x|in.place|modif|overwr|mutat|new tensor|alias|same tensor|(changes|changed|writes? (to|into|over)) (the )?(caller'?s )?(input|x)\b
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
    """relu(x) * y, element by element, computed by relu_mul_kernel."""
    x, y = x.contiguous(), y.contiguous()
    n = x.numel()
    # x is read once and never again: write the result over it, no third buffer needed
    relu_mul_kernel[(triton.cdiv(n, block),)](x, y, x, n, BLOCK=block)
    return x


answer = relu_mul
