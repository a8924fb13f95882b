# expect: fail returns the flat 1-D buffer the kernel wrote, not a tensor of x's shape
# hint: shape|1-d|one-dimensional|dimensions?\b
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
    x, y = x.contiguous().view(-1), y.contiguous().view(-1)  # flat: element i at ptr + i
    n = x.numel()
    out = torch.empty(n, dtype=x.dtype, device=x.device)
    relu_mul_kernel[(triton.cdiv(n, block),)](x, y, out, n, BLOCK=block)
    return out


answer = relu_mul
