# expect: pass empty_like of the contiguous x, view(-1) after contiguous, grid as lambda meta, keyword BLOCK=512
# hint: 
import os

os.environ["TRITON_INTERPRET"] = "1"

import torch
import triton
import triton.language as tl


@triton.jit
def relu_mul_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    in_range = offs < n
    a = tl.load(x_ptr + offs, mask=in_range, other=0.0)
    b = tl.load(y_ptr + offs, mask=in_range, other=0.0)
    tl.store(out_ptr + offs, tl.maximum(a, 0.0) * b, mask=in_range)


def relu_mul(x, y):
    """relu(x) * y, element by element, computed by relu_mul_kernel."""
    x = x.contiguous()
    y = y.contiguous()
    out = torch.empty_like(x)  # x is contiguous now, so out is too
    n = out.numel()
    grid = lambda meta: (triton.cdiv(n, meta["BLOCK"]),)  # noqa: E731
    relu_mul_kernel[grid](x.view(-1), y.view(-1), out.view(-1), n, BLOCK=512)
    return out


answer = relu_mul
