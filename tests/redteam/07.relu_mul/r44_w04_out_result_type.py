# expect: fail makes the output in PyTorch's promoted dtype (torch.result_type(x, y)), so a float16 x with a float32 y returns float32 where the prompt asks for x's dtype; values agree, only the dtype is wrong.
# hint: dtype|float16|x's dtype|x\.dtype
# name: relu_mul
import os

os.environ.setdefault("TRITON_INTERPRET", "1")  # as the exercise set-up cell does, before importing triton

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
    out = torch.empty(x.shape, dtype=torch.result_type(x, y), device=x.device)  # as torch.relu(x) * y
    n = x.numel()
    relu_mul_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
    return out
