# expect: fail Makes the output in torch.promote_types(x.dtype, y.dtype), which matches x's dtype for float32 x with float16 y but gives float32 for a float16 x with a float32 y, where the exercise asks for x's dtype whatever y's is.
# hint: dtype|x's dtype|promot|result_type|output|float
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
    dtype = torch.promote_types(x.dtype, y.dtype)  # "as PyTorch would"
    out = torch.empty(x.shape, dtype=dtype, device=x.device)
    n = x.numel()
    relu_mul_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
    return out
