# expect: fail the product is computed in x's dtype (y cast down to float16 in the kernel), not in float32
# hint: float32|precision|overflow|product|promot|half|float16
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
    # "the output is in x's dtype, so compute in x's dtype": y goes down to float16 first,
    # which rounds it, and a float32 y above 65504 becomes inf before the product
    tl.store(out_ptr + offsets, tl.maximum(x, 0.0) * y.to(x.dtype), mask=mask)


def relu_mul(x, y, block=1024):
    x, y = x.contiguous(), y.contiguous()
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = x.numel()
    relu_mul_kernel[(triton.cdiv(n, block),)](x, y, out, n, BLOCK=block)
    return out


answer = relu_mul
