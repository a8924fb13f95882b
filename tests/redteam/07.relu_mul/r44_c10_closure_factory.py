# expect: pass relu_mul built by a closure factory over its block size (4096), the grid computed with ceiling division by hand.
# hint: 
# name: relu_mul
import os

os.environ.setdefault("TRITON_INTERPRET", "1")  # as the exercise set-up cell does, before importing triton

import torch
import triton
import triton.language as tl


@triton.jit
def relu_mul_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    block_id = tl.program_id(axis=0)
    lanes = tl.arange(0, BLOCK)
    offsets = block_id * BLOCK + lanes
    live = offsets < n
    x = tl.load(x_ptr + offsets, mask=live)
    y = tl.load(y_ptr + offsets, mask=live)
    result = tl.maximum(x, 0.0) * y
    tl.store(out_ptr + offsets, result, mask=live)


def _make_relu_mul(block):
    def relu_mul(x, y):
        """relu(x) * y, element by element, computed by relu_mul_kernel."""
        xs = x.contiguous()
        ys = y.contiguous()
        n = xs.numel()
        out = torch.empty(xs.shape, dtype=xs.dtype, device=xs.device)
        programs = (n + block - 1) // block
        relu_mul_kernel[(programs,)](xs, ys, out, n, BLOCK=block)
        return out

    return relu_mul


relu_mul = _make_relu_mul(4096)
