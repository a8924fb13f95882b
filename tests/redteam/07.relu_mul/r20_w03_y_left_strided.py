# expect: fail x is made contiguous but y is not: a y with stride 2 or a transposed y is read as if element i were at ptr + i
# hint: contiguous|stride|y.{0,40}(layout|strided|not contiguous|transpos)|every other|ptr ?\+ ?i
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
    x = x.contiguous()  # the output follows x's layout, so only x needs it
    out = torch.empty_like(x)
    n = x.numel()
    relu_mul_kernel[(triton.cdiv(n, 512),)](x, y, out, n, BLOCK=512)
    return out


answer = relu_mul
