# expect: fail the output is torch.empty_like of the caller's x, made before x is copied: for a transposed x it is transposed, not contiguous, and holds the elements in the wrong places
# hint: contiguous|empty_like|transpos|layout|stride|output
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
    out = torch.empty_like(x)  # x's shape, dtype and device
    x, y = x.contiguous(), y.contiguous()
    n = x.numel()
    relu_mul_kernel[(triton.cdiv(n, block),)](x, y, out, n, BLOCK=block)
    return out


answer = relu_mul
