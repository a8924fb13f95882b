# expect: fail relu done by PyTorch on the host (x.clamp(min=0)), the kernel only multiplies: an extra kernel and pass over x
# hint: relu.{0,40}(host|torch|pytorch|outside|before the kernel|not in the kernel)|clamp|extra (pass|kernel)|two kernels|not fused|reads? x (twice|again)
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
    a = tl.load(x_ptr + offsets, mask=mask)
    b = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, a * b, mask=mask)  # a is already relu(x)


def relu_mul(x, y):
    """relu(x) * y, element by element, computed by relu_mul_kernel."""
    positive = x.clamp(min=0).contiguous()  # relu first, the kernel does the product
    y = y.contiguous()
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = out.numel()
    BLOCK = 256
    relu_mul_kernel[(triton.cdiv(n, BLOCK),)](positive, y, out, n, BLOCK=BLOCK)
    return out


answer = relu_mul
