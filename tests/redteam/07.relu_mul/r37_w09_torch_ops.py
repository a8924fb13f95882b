# expect: fail relu_mul computes with torch ops (clamp_min and mul), the kernel is never launched
# hint: kernel|triton|launch|torch (op|function)|clamp|two kernels|not (computed|run) by
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
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    torch.mul(x.clamp_min(0), y, out=out)  # same values, and out is contiguous
    return out
