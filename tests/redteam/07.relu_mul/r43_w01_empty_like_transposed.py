# expect: fail The output is torch.empty_like(x) of the original x, which for a transposed x is transposed too; the kernel writes element i at out_ptr + i, so the result comes back transposed in memory (wrong values and not contiguous).
# hint: contiguous|empty_like|layout|transpos|stride
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
    out = torch.empty_like(x)  # of the caller's x: transposed when x is
    xc, yc = x.contiguous(), y.contiguous()
    n = xc.numel()
    relu_mul_kernel[(triton.cdiv(n, 1024),)](xc, yc, out, n, BLOCK=1024)
    return out
