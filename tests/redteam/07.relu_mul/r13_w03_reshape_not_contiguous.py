# expect: fail flattens with reshape(-1), which returns a strided view of a 1-D y with stride 2 instead of a contiguous copy
# hint: contiguous|stride|strided|reshape|layout|not (side by side|adjacent)|every other
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
    # reshape copies a tensor that is not contiguous: element i is then at ptr + i
    flat_x, flat_y = x.reshape(-1), y.reshape(-1)
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = flat_x.numel()
    relu_mul_kernel[(triton.cdiv(n, block),)](flat_x, flat_y, out, n, BLOCK=block)
    return out


answer = relu_mul
