# expect: fail Makes only x contiguous; a y that is every other element of a longer vector (stride 2) or transposed is read at y_ptr + i, which are not its elements, so the products use the wrong y values.
# hint: contiguous|stride|y|layout|not contiguous
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
    x = x.contiguous()  # y "already has x's shape"
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = x.numel()
    relu_mul_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
    return out
