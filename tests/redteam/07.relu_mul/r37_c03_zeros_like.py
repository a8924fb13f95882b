# expect: pass relu as maximum with tl.zeros_like, ceil by negative floor division, is_contiguous guard
# hint:
# name: relu_mul
import torch
import triton
import triton.language as tl


@triton.jit
def relu_mul_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    xv = tl.load(x_ptr + offs, mask=m)
    yv = tl.load(y_ptr + offs, mask=m)
    tl.store(out_ptr + offs, tl.maximum(xv, tl.zeros_like(xv)) * yv, mask=m)


def relu_mul(x, y):
    """relu(x) * y, element by element, computed by relu_mul_kernel."""
    if not x.is_contiguous():
        x = x.contiguous()
    if not y.is_contiguous():
        y = y.contiguous()
    out = torch.empty_like(x)  # x is contiguous by now, so out is too
    n = x.numel()
    BLOCK = 1024
    programs = -(-n // BLOCK)  # ceil(n / BLOCK)
    relu_mul_kernel[(programs,)](x, y, out, n, BLOCK=BLOCK)
    return out
