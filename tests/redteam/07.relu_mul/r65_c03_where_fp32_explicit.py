# expect: pass
# hint:
# Right: relu written as tl.where, masked lanes loaded as 0 (other=0.0), the product taken in
# float32 explicitly and the store converting to x's dtype: the same values as the plain form.
import torch
import triton
import triton.language as tl


@triton.jit
def relu_mul_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
    y = tl.load(y_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
    product = tl.where(x < 0.0, 0.0, x) * y  # NaN stays NaN, as with torch.relu
    tl.store(out_ptr + offsets, product.to(out_ptr.dtype.element_ty), mask=mask)


def relu_mul(x, y):
    """relu(x) * y, element by element, computed by relu_mul_kernel."""
    block = 128  # small fixed blocks: many programs
    x = x if x.is_contiguous() else x.contiguous()
    y = y if y.is_contiguous() else y.contiguous()
    out = torch.empty_like(x)  # x is contiguous by now, so out is too
    n = x.numel()
    relu_mul_kernel[(triton.cdiv(n, block),)](x, y, out, n, BLOCK=block)
    return out


answer = relu_mul
