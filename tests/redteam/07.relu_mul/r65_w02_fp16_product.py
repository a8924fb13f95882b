# expect: fail casts y to x's dtype inside the kernel, so with a float16 x and a float32 y the product is computed in float16, not float32 as the prompt requires (off by an ulp, within fp16 tolerances)
# hint: float32|precision|round|fp16|float16|half|promot|product.*dtype|dtype.*product
# Wrong: the prompt says the kernel's product is in float32 when the dtypes are mixed, as PyTorch's
# is, and only the store converts to x's dtype; rounding y to float16 first rounds twice.
import torch
import triton
import triton.language as tl


@triton.jit
def relu_mul_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask).to(x.dtype)  # "stored in x's dtype": match it early
    tl.store(out_ptr + offsets, tl.maximum(x, 0.0) * y, mask=mask)


def relu_mul(x, y, block=1024):
    """relu(x) * y, element by element, computed by relu_mul_kernel."""
    x, y = x.contiguous(), y.contiguous()
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = x.numel()
    relu_mul_kernel[(triton.cdiv(n, block),)](x, y, out, n, BLOCK=block)
    return out


answer = relu_mul
