# expect: pass a 1-D output buffer viewed back to x.shape, program count by math.ceil, small constant block
# hint: 
import math
import os

os.environ["TRITON_INTERPRET"] = "1"

import torch
import triton
import triton.language as tl

BLOCK_SIZE = 128


@triton.jit
def relu_mul_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK
    offsets = block_start + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
    y = tl.load(y_ptr + offsets, mask=mask, other=0.0)
    relu_x = tl.maximum(x, 0.0)
    tl.store(out_ptr + offsets, relu_x * y, mask=mask)


def relu_mul(x, y):
    """relu(x) * y, element by element, computed by relu_mul_kernel."""
    n = x.numel()
    flat_x = x.contiguous().view(-1)
    flat_y = y.contiguous().view(-1)
    flat_out = torch.empty(n, dtype=x.dtype, device=x.device)
    num_programs = math.ceil(n / BLOCK_SIZE)
    relu_mul_kernel[(num_programs,)](flat_x, flat_y, flat_out, n, BLOCK=BLOCK_SIZE)
    return flat_out.view(x.shape)


answer = relu_mul
