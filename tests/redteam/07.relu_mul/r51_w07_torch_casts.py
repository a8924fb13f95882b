# expect: fail right values, but the mixed-dtype case casts with PyTorch (float16 up to float32, the float32 result back down): extra passes over memory
# hint: cast|copy|\.to\(|extra|pass|bytes|moved|once
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


def relu_mul(x, y, block=1024):
    out_dtype = x.dtype
    if x.dtype != y.dtype:  # "the product is in float32": make both float32 first
        x, y = x.float(), y.float()
    x, y = x.contiguous(), y.contiguous()
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = x.numel()
    relu_mul_kernel[(triton.cdiv(n, block),)](x, y, out, n, BLOCK=block)
    return out.to(out_dtype)  # and back to x's dtype


answer = relu_mul
