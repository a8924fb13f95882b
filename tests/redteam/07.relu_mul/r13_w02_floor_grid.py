# expect: fail grid is n // BLOCK programs: the last, partial block is never computed
# hint: cdiv|partial block|last block|grid|ceil|round(ed|ing)? (up|down)|not (computed|written)|uninitiali[sz]ed|missing elements
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


def relu_mul(x, y, block=256):
    """relu(x) * y, element by element, computed by relu_mul_kernel."""
    x, y = x.contiguous(), y.contiguous()
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = x.numel()
    grid = (max(n // block, 1),)  # number of blocks
    relu_mul_kernel[grid](x, y, out, n, BLOCK=block)
    return out


answer = relu_mul
