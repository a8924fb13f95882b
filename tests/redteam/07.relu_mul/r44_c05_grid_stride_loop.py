# expect: pass a grid-stride persistent kernel: at most 4 programs, each loops over every 4th block using tl.num_programs, BLOCK=256.
# hint: 
# name: relu_mul
import os

os.environ.setdefault("TRITON_INTERPRET", "1")  # as the exercise set-up cell does, before importing triton

import torch
import triton
import triton.language as tl


@triton.jit
def relu_mul_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    step = tl.num_programs(axis=0) * BLOCK
    for start in range(pid * BLOCK, n, step):
        offsets = start + tl.arange(0, BLOCK)
        mask = offsets < n
        xv = tl.load(x_ptr + offsets, mask=mask)
        yv = tl.load(y_ptr + offsets, mask=mask)
        tl.store(out_ptr + offsets, tl.maximum(xv, 0.0) * yv, mask=mask)


MAX_PROGRAMS = 4


def relu_mul(x, y):
    """relu(x) * y, element by element, computed by relu_mul_kernel."""
    x, y = x.contiguous(), y.contiguous()
    n = x.numel()
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    block = 256
    programs = min(triton.cdiv(n, block), MAX_PROGRAMS)
    relu_mul_kernel[(programs,)](x, y, out, n, BLOCK=block)
    return out
