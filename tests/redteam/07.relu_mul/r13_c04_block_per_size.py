# expect: pass block chosen from n (next power of two, capped), positional BLOCK, torch.empty_like of the contiguous copy
# hint: 
import torch
import triton
import triton.language as tl


@triton.jit
def relu_mul_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    idx = pid * BLOCK + tl.arange(0, BLOCK)
    m = idx < n
    xv = tl.load(x_ptr + idx, mask=m, other=0.0)
    yv = tl.load(y_ptr + idx, mask=m, other=0.0)
    out = tl.maximum(xv, 0.0) * yv
    tl.store(out_ptr + idx, out, mask=m)


def relu_mul(x, y):
    """relu(x) * y, element by element, computed by relu_mul_kernel."""
    xc = x.contiguous()
    yc = y.contiguous()
    out = torch.empty_like(xc)  # xc is contiguous, so out is too
    n = xc.numel()
    if n > 0:
        block = min(triton.next_power_of_2(n), 2048)
        relu_mul_kernel[(triton.cdiv(n, block),)](xc, yc, out, n, block)
    return out


answer = relu_mul
