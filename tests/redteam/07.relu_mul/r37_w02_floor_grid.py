# expect: fail grid of n // BLOCK programs (floor): the partial last block is never computed (its output made with torch.empty: as first written it also filled torch.zeros, kept as r37_w12)
# hint: cdiv|ceil|grid|round|partial|last block|programs|elements? (were|was|are|is)? ?(not|never|left)|uncomputed|unwritten
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
    x, y = x.contiguous(), y.contiguous()
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = x.numel()
    block = 128
    grid = (max(1, n // block),)  # one program per block
    relu_mul_kernel[grid](x, y, out, n, BLOCK=block)
    return out
