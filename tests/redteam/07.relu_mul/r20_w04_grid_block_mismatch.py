# expect: fail the grid is sized for blocks of 1024 but the kernel is launched with BLOCK=256: only a quarter of the elements are written
# hint: grid|cdiv|number of (programs|blocks)|block.{0,60}(mismatch|differ|same|match|grid)|not (all|every) element|uncovered|never (written|stored)|uninitiali[sz]ed|garbage
import os

os.environ["TRITON_INTERPRET"] = "1"

import torch
import triton
import triton.language as tl

GRID_BLOCK = 1024


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
    grid = (triton.cdiv(n, GRID_BLOCK),)
    relu_mul_kernel[grid](x, y, out, n, BLOCK=256)  # smaller blocks for the tail
    return out


answer = relu_mul
