# expect: pass output from torch.empty_like(x, memory_format=torch.contiguous_format) of the original x, inputs made contiguous only when they are not
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
    out = torch.empty_like(x, memory_format=torch.contiguous_format)
    xs = x if x.is_contiguous() else x.contiguous()
    ys = y if y.is_contiguous() else y.contiguous()
    n = out.numel()
    BLOCK = 512
    relu_mul_kernel[(triton.cdiv(n, BLOCK),)](xs, ys, out, n, BLOCK=BLOCK)
    return out


answer = relu_mul
