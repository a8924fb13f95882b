# expect: fail the output is made with torch.zeros: a fill kernel writes n elements before the kernel writes them again, one pass over memory more
# hint: zeros|fill|extra|pass|bytes|write|traffic|torch\.empty|memory moved
import os

os.environ.setdefault("TRITON_INTERPRET", "1")  # as the exercise notebook's set-up cell does

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
    x, y = x.contiguous(), y.contiguous()  # the kernel assumes element i at ptr + i
    out = torch.zeros(x.shape, dtype=x.dtype, device=x.device)  # start from a clean output
    n = x.numel()
    grid = (triton.cdiv(n, block),)
    relu_mul_kernel[grid](x, y, out, n, BLOCK=block)
    return out


answer = relu_mul
