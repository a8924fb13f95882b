# expect: fail output made with torch.empty_like of the original (transposed) x: not contiguous, elements land in the wrong places
# hint: contiguous|empty_like|stride|layout|transpos
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
    """relu(x) * y, element by element, computed by relu_mul_kernel."""
    out = torch.empty_like(x)  # same shape, dtype and device as x
    xc, yc = x.contiguous(), y.contiguous()
    n = xc.numel()
    block = 256
    relu_mul_kernel[(triton.cdiv(n, block),)](xc, yc, out, n, BLOCK=block)
    return out
