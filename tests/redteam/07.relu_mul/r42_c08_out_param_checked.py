# expect: pass an optional out= reused only when it is contiguous and of the right shape/dtype/device
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


def relu_mul(x, y, out=None):
    x, y = x.contiguous(), y.contiguous()
    usable = (
        out is not None
        and out.is_contiguous()
        and out.shape == x.shape
        and out.dtype == x.dtype
        and out.device == x.device
        and out.data_ptr() not in (x.data_ptr(), y.data_ptr())
    )
    if not usable:
        out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = x.numel()
    relu_mul_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
    return out
