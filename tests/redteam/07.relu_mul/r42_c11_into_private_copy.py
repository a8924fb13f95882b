# expect: pass writes into x.contiguous()'s private copy when it made one, else a fresh empty
# hint: 
# name: relu_mul
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
    xc, yc = x.contiguous(), y.contiguous()
    if xc.data_ptr() != x.data_ptr():  # a copy of our own, elementwise in place is safe
        out = xc
    else:
        out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = xc.numel()
    relu_mul_kernel[(triton.cdiv(n, 1024),)](xc, yc, out, n, BLOCK=1024)
    return out
