# expect: fail Makes the output with torch.empty(x.shape, device=x.device) without dtype=, so it is float32 (the default) whatever x is: right for float32 x, wrong dtype for a float16 or float64 x.
# hint: dtype|x's dtype|float16|float64|output|default
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
    x, y = x.contiguous(), y.contiguous()
    out = torch.empty(x.shape, device=x.device)  # default dtype
    n = x.numel()
    relu_mul_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
    return out
