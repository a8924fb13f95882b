# expect: pass the kernel converts the lower-precision operand to float32 explicitly when dtypes differ (a constexpr test on the loaded dtypes), relu with tl.maximum, BLOCK=2048, a function with a different name
# hint:
# name: fused_relu_times
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
    if x.dtype != y.dtype:  # float16 with float32: the product in float32, as PyTorch's
        x = x.to(tl.float32)
        y = y.to(tl.float32)
    tl.store(out_ptr + offsets, tl.maximum(x, 0.0) * y, mask=mask)  # stored in out's dtype


BLOCK = 2048


def fused_relu_times(x, y):
    """relu(x) * y, element by element, computed by relu_mul_kernel."""
    if not x.is_contiguous():
        x = x.contiguous()
    if not y.is_contiguous():
        y = y.contiguous()
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = out.numel()
    relu_mul_kernel[(triton.cdiv(n, BLOCK),)](x, y, out, n, BLOCK=BLOCK)
    return out
