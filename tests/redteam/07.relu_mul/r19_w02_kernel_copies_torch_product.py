# expect: fail the product relu(x) * y is computed by PyTorch; the kernel only copies it into the output
# hint: (computed|done|work).{0,30}(torch|pytorch|host|outside)|only cop(y|ies)|copy kernel|kernel (does not|doesn.t|never) (compute|multipl)|torch(\.relu)?.{0,20}(result|product)|not (by|in) (the|your) kernel
import os

os.environ["TRITON_INTERPRET"] = "1"

import torch
import triton
import triton.language as tl


@triton.jit
def relu_mul_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    v = tl.load(x_ptr + offs, mask=m)
    tl.store(out_ptr + offs, v, mask=m)


def relu_mul(x, y):
    """relu(x) * y, element by element, computed by relu_mul_kernel."""
    prod = (torch.relu(x) * y).contiguous()
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = prod.numel()
    relu_mul_kernel[(triton.cdiv(n, 128),)](prod, prod, out, n, BLOCK=128)
    return out


answer = relu_mul
