# expect: fail flattens with .view(-1) before .contiguous(): raises on a transposed x (view needs compatible strides)
# hint: view|rais|error|exception|transpos|not contiguous|contiguous\(\).{0,20}(first|before)|strid
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
    flat_x = x.view(-1).contiguous()
    flat_y = y.view(-1).contiguous()
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = flat_x.numel()
    relu_mul_kernel[(triton.cdiv(n, 512),)](flat_x, flat_y, out, n, BLOCK=512)
    return out


answer = relu_mul
