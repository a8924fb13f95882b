# expect: fail Converts y to x's dtype with PyTorch (y.to(x.dtype)) before the launch: a cast kernel that reads y and writes a new float32 copy, one pass more over memory than the one fused kernel that should read y once and convert in registers.
# hint: cast|pass|one pass|copy|\.to\(|float16|convert|extra
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
    x = x.contiguous()
    y = y.to(x.dtype).contiguous()  # float16 -> float32 in PyTorch, before the kernel
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = x.numel()
    relu_mul_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
    return out
