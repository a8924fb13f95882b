# expect: fail flattens the inputs with reshape(-1), trusting it to copy non-contiguous inputs; for a 1-D input with stride 2 (every other element of a longer vector) reshape returns the same strided view, so the kernel reads the wrong elements
# hint: contiguous|stride|layout|reshape|view|every other|not at ptr|is_contiguous|step
# Wrong: the prompt's every-other-element input (y.stride(0) == 2) is not at ptr + i, and
# reshape(-1) of a 1-D tensor is the tensor itself; transposes and column slices do get copied.
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
    flat_x, flat_y = x.reshape(-1), y.reshape(-1)  # reshape copies whatever cannot be a view
    n = flat_x.numel()
    out = torch.empty(n, dtype=x.dtype, device=x.device)
    relu_mul_kernel[(triton.cdiv(n, block),)](flat_x, flat_y, out, n, BLOCK=block)
    return out.view(x.shape)


answer = relu_mul
