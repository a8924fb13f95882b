# expect: fail BLOCK is not fixed: it is the next power of two of the last dimension, as in the softmax, so a 1-D input of any length runs as one program (and each row length compiles another kernel)
# hint: fixed|BLOCK|block size|one program|single program|programs|grid|cdiv|next_power
import os

os.environ.setdefault("TRITON_INTERPRET", "1")  # as the exercise notebook's set-up cell does

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
    x, y = x.contiguous(), y.contiguous()  # the kernel assumes element i at ptr + i
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = x.numel()
    row = x.shape[-1] if x.dim() > 0 else 1
    block = triton.next_power_of_2(max(row, 1))  # a block per row, as the softmax does
    grid = (triton.cdiv(n, block),)
    relu_mul_kernel[grid](x, y, out, n, BLOCK=block)
    return out


answer = relu_mul
