# expect: pass functools.partial fixes the block size of a general wrapper; inputs made contiguous as add does
# hint:
import functools

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
    # fp16 * fp32 promotes to fp32 in Triton, as in PyTorch; tl.store converts to out's dtype
    tl.store(out_ptr + offsets, tl.maximum(x, 0.0) * y, mask=mask)


def _relu_mul(x, y, *, block):
    x, y = x.contiguous(), y.contiguous()  # the kernel assumes element i at ptr + i
    out = torch.empty_like(x)  # x is contiguous now, so out is too
    n = x.numel()
    relu_mul_kernel[(triton.cdiv(n, block),)](x, y, out, n, BLOCK=block)
    return out


relu_mul = functools.partial(_relu_mul, block=256)

answer = relu_mul
