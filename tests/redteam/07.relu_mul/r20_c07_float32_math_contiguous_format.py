# expect: pass empty_like(x, memory_format=torch.contiguous_format), product computed in float32 and cast back on store
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
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
    y = tl.load(y_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
    result = tl.maximum(x, 0.0) * y
    tl.store(out_ptr + offsets, result.to(out_ptr.dtype.element_ty), mask=mask)


def relu_mul(x, y):
    """relu(x) * y, element by element, computed by relu_mul_kernel."""
    out = torch.empty_like(x, memory_format=torch.contiguous_format)
    x_c = x.contiguous()
    y_c = y.contiguous()
    n = out.numel()
    BLOCK = triton.next_power_of_2(min(max(n, 1), 1024))
    relu_mul_kernel[(triton.cdiv(n, BLOCK),)](x_c, y_c, out, n, BLOCK=BLOCK)
    return out


answer = relu_mul
