# expect: fail casts y to x's dtype with PyTorch before the launch: an extra pass over y (5 n floats moved, not 3 n), and for a float16 x the float32 y is rounded before the product, which is then in float16 instead of float32.
# hint: cast|dtype|float32|pass|copy|y\.to|once
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
    x = x.contiguous()
    y = y.to(x.dtype).contiguous()  # "match the dtypes first"
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = x.numel()
    relu_mul_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
    return out
