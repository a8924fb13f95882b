# expect: fail offsets are pid + arange(BLOCK), without pid * BLOCK: the blocks overlap and elements past BLOCK + programs are never written
# hint: pid ?\* ?block|program_id.{0,40}block|offset|overlap|block start|start of (the|each) block|never (written|stored)|uninitiali[sz]ed|garbage
import os

os.environ["TRITON_INTERPRET"] = "1"

import torch
import triton
import triton.language as tl


@triton.jit
def relu_mul_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, tl.maximum(x, 0.0) * y, mask=mask)


def relu_mul(x, y):
    """relu(x) * y, element by element, computed by relu_mul_kernel."""
    x, y = x.contiguous(), y.contiguous()
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = x.numel()
    grid = (triton.cdiv(n, 128),)
    relu_mul_kernel[grid](x, y, out, n, BLOCK=128)
    return out


answer = relu_mul
