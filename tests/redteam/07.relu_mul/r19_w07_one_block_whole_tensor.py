# expect: fail one program with a block of next_power_of_2(n) lanes for the whole tensor: no parallelism, and beyond 2**20 elements Triton refuses the block
# hint: (one|single|1) (program|block)|next_power_of_2|whole (tensor|input)|block.{0,30}(large|big|size|numel|max)|TRITON_MAX|cdiv|grid|parallel
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
    x, y = x.contiguous(), y.contiguous()
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = x.numel()
    BLOCK = triton.next_power_of_2(max(n, 1))  # one block holds everything: no partial blocks
    relu_mul_kernel[(1,)](x, y, out, n, BLOCK=BLOCK)
    return out


answer = relu_mul
