# expect: fail converts both inputs to float32 with PyTorch before the kernel (x.float(), y.float()): right values, but for mixed dtypes a cast kernel and a copy of the float16 input, one pass more than reading x and y once
# hint: cast|convert|copy|extra (pass|kernel|read)|\.to\(|float\(\)|read.*once|bytes|pytorch.*(dtype|float32)|upcast
# Wrong: the prompt has the kernel itself do the float32 product on the inputs as they are
# (3 n floats moved); the PyTorch cast writes the float16 input out again as float32 first.
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
    """relu(x) * y, element by element, computed by relu_mul_kernel."""
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)  # stored in x's dtype
    # the product in float32, as PyTorch's is: a no-op for float32 inputs
    x, y = x.float().contiguous(), y.float().contiguous()
    n = x.numel()
    relu_mul_kernel[(triton.cdiv(n, block),)](x, y, out, n, BLOCK=block)
    return out


answer = relu_mul
