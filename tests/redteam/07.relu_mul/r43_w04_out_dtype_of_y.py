# expect: fail Makes the output with torch.empty_like of the contiguous y, so with x in float32 and y in float16 the result is float16: not x's dtype, and rounded.
# hint: dtype|float32|float16|x's dtype|output
# name: relu_mul
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


def relu_mul(x, y):
    x, y = x.contiguous(), y.contiguous()
    out = torch.empty_like(y)  # contiguous, right shape, but y's dtype
    n = x.numel()
    relu_mul_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
    return out
