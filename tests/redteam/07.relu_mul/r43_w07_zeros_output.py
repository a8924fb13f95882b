# expect: fail Makes the output with torch.zeros instead of torch.empty "to be safe": a fill kernel that writes n elements before the kernel writes them again, one pass more over memory.
# hint: zeros|fill|empty|pass|extra|one pass
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
    out = torch.zeros(x.shape, dtype=x.dtype, device=x.device)
    n = x.numel()
    relu_mul_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
    return out
