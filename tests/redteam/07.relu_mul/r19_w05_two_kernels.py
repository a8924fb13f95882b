# expect: fail two launches, a relu kernel writing a temporary then a multiply kernel reading it back: 5 n moved, not fused
# hint: two (kernels|launches)|(one|single|1) (kernel|launch)|launch(es|ed)? (twice|2)|temporar|intermediate|not fused|fus|extra (pass|launch|kernel)|5 ?n
import os

os.environ["TRITON_INTERPRET"] = "1"

import torch
import triton
import triton.language as tl


@triton.jit
def _relu_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(out_ptr + offsets, tl.maximum(tl.load(x_ptr + offsets, mask=mask), 0.0), mask=mask)


@triton.jit
def relu_mul_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    # x_ptr holds relu(x), written by _relu_kernel
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    r = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, r * y, mask=mask)


def relu_mul(x, y):
    """relu(x) * y, element by element, computed by relu_mul_kernel."""
    x, y = x.contiguous(), y.contiguous()
    n = x.numel()
    BLOCK = 256
    grid = (triton.cdiv(n, BLOCK),)
    relu = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    _relu_kernel[grid](x, relu, n, BLOCK=BLOCK)
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    relu_mul_kernel[grid](relu, y, out, n, BLOCK=BLOCK)
    return out


answer = relu_mul
