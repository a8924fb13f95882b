# expect: fail asserts x.dtype == y.dtype, where the prompt says y's dtype need not be x's (x in float32, y in float16)
# hint: for n = 1000, x in float32 and y in float16, your code raised AssertionError
import os

os.environ["TRITON_INTERPRET"] = "1"

import torch
import triton
import triton.language as tl


@triton.jit
def relu_mul_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
    y = tl.load(y_ptr + offsets, mask=mask, other=0.0)
    tl.store(out_ptr + offsets, tl.maximum(x, 0.0) * y, mask=mask)


def _pick_block(n):
    if n <= 128:
        return max(16, triton.next_power_of_2(n))
    if n <= 100_000:
        return 512
    return 2048


def relu_mul(x, y):
    """relu(x) * y, element by element, computed by relu_mul_kernel."""
    assert x.shape == y.shape, f"shapes differ: {tuple(x.shape)} vs {tuple(y.shape)}"
    assert x.dtype == y.dtype, "x and y must have the same dtype"
    assert x.device == y.device
    out = torch.empty(x.size(), dtype=x.dtype, device=x.device)
    n = x.numel()
    if n == 0:
        return out
    xf = x.contiguous().flatten()
    yf = y.contiguous().flatten()
    block = _pick_block(n)
    relu_mul_kernel[(triton.cdiv(n, block),)](xf, yf, out, n, BLOCK=block)
    return out


answer = relu_mul
