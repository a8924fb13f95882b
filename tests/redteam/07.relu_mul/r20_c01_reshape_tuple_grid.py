# expect: pass contiguous copies flattened with reshape(-1), torch.empty(x.shape, dtype, device), tuple grid by triton.cdiv, positional launch
# hint: 
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
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, tl.maximum(x, 0.0) * y, mask=mask)


def relu_mul(x, y):
    """relu(x) * y, element by element, computed by relu_mul_kernel."""
    x_flat = x.contiguous().reshape(-1)
    y_flat = y.contiguous().reshape(-1)
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = x_flat.numel()
    grid = (triton.cdiv(n, 1024),)
    relu_mul_kernel[grid](x_flat, y_flat, out, n, 1024)
    return out


answer = relu_mul
