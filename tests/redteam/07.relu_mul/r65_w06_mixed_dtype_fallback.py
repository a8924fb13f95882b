# expect: fail when x and y have different dtypes it computes the result with PyTorch (relu, mul, cast) and never launches relu_mul_kernel
# hint: computed by|relu_mul_kernel|launch|pytorch|torch\.(relu|mul)|fall ?back|mixed|not (launched|computed)|kernel (was )?not|without the kernel
# Wrong: the prompt says the result is computed by relu_mul_kernel, including for mixed dtypes
# (the kernel's product in float32, stored in x's dtype); this path runs three PyTorch kernels.
import torch
import triton
import triton.language as tl
from torch.nn.functional import relu as _activation


@triton.jit
def relu_mul_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, tl.maximum(x, 0.0) * y, mask=mask)


def relu_mul(x, y, block=1024):
    """relu(x) * y, element by element, computed by relu_mul_kernel."""
    if x.dtype != y.dtype:  # the rare mixed case: let PyTorch do the promotion right
        return (_activation(x) * y).to(x.dtype).contiguous()
    x, y = x.contiguous(), y.contiguous()
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = x.numel()
    relu_mul_kernel[(triton.cdiv(n, block),)](x, y, out, n, BLOCK=block)
    return out


answer = relu_mul
