# expect: fail Casts relu(x) to y's dtype before multiplying, so with x in float32 and y in float16 the product is computed in float16 and rounded to about 3 decimal digits, while PyTorch computes it in float32.
# hint: float32|float16|dtype|precision|product|promot
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
    r = tl.maximum(x, 0.0).to(y.dtype)  # "match the dtypes": float16 when y is
    tl.store(out_ptr + offsets, r * y, mask=mask)


def relu_mul(x, y):
    x, y = x.contiguous(), y.contiguous()
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = x.numel()
    relu_mul_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
    return out
