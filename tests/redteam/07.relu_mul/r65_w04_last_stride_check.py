# expect: fail copies an input only when its last stride is not 1 (the softmax's test), so a slice of a wider matrix's columns (stride(1) == 1, rows not side by side) is read as if contiguous
# hint: contiguous|stride|layout|slice|side by side|not at ptr|is_contiguous|row.*apart|gap
# Wrong: the prompt warns that such a slice has x.stride(1) == 1 yet its elements are not at
# ptr + i; only x.is_contiguous() tells. Transposes and every-other-element inputs do pass.
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
    if x.dim() == 0 or x.stride(-1) != 1:
        x = x.contiguous()  # copy only when the elements are not side by side
    if y.dim() == 0 or y.stride(-1) != 1:
        y = y.contiguous()
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = x.numel()
    relu_mul_kernel[(triton.cdiv(n, block),)](x, y, out, n, BLOCK=block)
    return out


answer = relu_mul
