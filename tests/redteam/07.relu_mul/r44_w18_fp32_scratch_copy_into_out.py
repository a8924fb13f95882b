# expect: fail lets the kernel store into a float32 scratch tensor and then out.copy_(scratch) into the x-dtype output it returns: the returned tensor is the right one in dtype and layout, but the copy is a PyTorch cast, one more pass over n elements and n float32 more written.
# hint: cast|copy|pass|once|scratch|temporar
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
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = x.numel()
    if x.dtype == y.dtype:
        relu_mul_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
        return out
    scratch = torch.empty(x.shape, dtype=torch.float32, device=x.device)  # the float32 product
    relu_mul_kernel[(triton.cdiv(n, 1024),)](x, y, scratch, n, BLOCK=1024)
    out.copy_(scratch)  # rounded to x's dtype here
    return out
