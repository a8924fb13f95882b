# expect: fail judged wrong: one program loops over every block (a grid of 1), so on a GPU one multiprocessor does all the work; the prompt asks for a grid of triton.cdiv(n, BLOCK) programs. Written as right: a persistent kernel: one program loops over all the blocks (for start in range(0, n, BLOCK)), grid of 1, BLOCK=128.
# hint: one program|grid of 1
# name: relu_mul
import os

os.environ.setdefault("TRITON_INTERPRET", "1")  # as the exercise set-up cell does, before importing triton

import torch
import triton
import triton.language as tl


@triton.jit
def relu_mul_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # a single program walks the vector block by block; each element is read and written once
    for start in range(0, n, BLOCK):
        offsets = start + tl.arange(0, BLOCK)
        mask = offsets < n
        x = tl.load(x_ptr + offsets, mask=mask)
        y = tl.load(y_ptr + offsets, mask=mask)
        tl.store(out_ptr + offsets, tl.maximum(x, 0.0) * y, mask=mask)


def relu_mul(x, y):
    """relu(x) * y, element by element, computed by relu_mul_kernel."""
    x = x.contiguous()
    y = y.contiguous()
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    relu_mul_kernel[(1,)](x, y, out, x.numel(), BLOCK=128)
    return out
