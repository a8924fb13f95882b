# expect: fail x.relu_() on the host before the launch: overwrites the caller's x (negative entries become 0) and adds a pass
# hint: (mutat|modif|overwr|chang|clobber|in.place).{0,40}(input|x\b|caller)|relu_|in.place|input.{0,20}(changed|modified)
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
    x.relu_()  # no temporary: relu in place (the kernel's maximum is then a no-op)
    xc, yc = x.contiguous(), y.contiguous()
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = out.numel()
    relu_mul_kernel[(triton.cdiv(n, 1024),)](xc, yc, out, n, BLOCK=1024)
    return out


answer = relu_mul
