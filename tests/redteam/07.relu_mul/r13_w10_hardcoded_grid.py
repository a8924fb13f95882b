# expect: fail grid sized for the chapter's n = 1000 (one program of 1024): elements past 1024 never computed
# hint: cdiv|grid|hard.?coded|1000|1024|number of (blocks|programs)|larger (inputs?|sizes?)|not (computed|written)|uninitiali[sz]ed|missing elements
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


BLOCK = 1024
GRID = (triton.cdiv(1000, BLOCK),)  # as in chapter 7: n = 1000, BLOCK = 1024


def relu_mul(x, y):
    """relu(x) * y, element by element, computed by relu_mul_kernel."""
    x, y = x.contiguous(), y.contiguous()
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    relu_mul_kernel[GRID](x, y, out, x.numel(), BLOCK=BLOCK)
    return out


answer = relu_mul
