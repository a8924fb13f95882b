# expect: fail the output takes the promoted dtype of x and y (float32 when one is float16), not x's dtype
# hint: dtype|float16|float32|half|promot|x's dtype
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
    x, y = x.contiguous(), y.contiguous()
    dtype = torch.promote_types(x.dtype, y.dtype)  # as PyTorch's relu(x) * y
    out = torch.empty(x.shape, dtype=dtype, device=x.device)
    n = x.numel()
    relu_mul_kernel[(triton.cdiv(n, block),)](x, y, out, n, BLOCK=block)
    return out


answer = relu_mul
