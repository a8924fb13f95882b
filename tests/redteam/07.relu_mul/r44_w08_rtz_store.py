# expect: fail converts the float32 product to float16 with round-toward-zero (fp_downcast_rounding="rtz") instead of round-to-nearest, as PyTorch's .to(float16) does: about half the float16 outputs are one ulp off, within assert_close's default float16 tolerance.
# hint: round|rtz|nearest|ulp|exact|float16
# name: relu_mul
import os

os.environ.setdefault("TRITON_INTERPRET", "1")  # as the exercise set-up cell does, before importing triton

import torch
import triton
import triton.language as tl


@triton.jit
def relu_mul_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask).to(tl.float32)
    y = tl.load(y_ptr + offsets, mask=mask).to(tl.float32)
    product = tl.maximum(x, 0.0) * y
    if out_ptr.dtype.element_ty == tl.float16:
        product = product.to(tl.float16, fp_downcast_rounding="rtz")  # "truncate, it is cheaper"
    tl.store(out_ptr + offsets, product, mask=mask)


def relu_mul(x, y):
    """relu(x) * y, element by element, computed by relu_mul_kernel."""
    x, y = x.contiguous(), y.contiguous()
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = x.numel()
    relu_mul_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
    return out
