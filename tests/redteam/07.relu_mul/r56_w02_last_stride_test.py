# expect: fail copies an input only when its last stride is not 1, so a slice of a wider matrix's columns (stride(1) == 1, rows apart) is read as if contiguous
# hint: contiguous|stride|layout|slice|is_contiguous|rows
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
    # as the chapter's softmax: copy only when the elements are not side by side
    if x.stride()[-1:] != (1,):
        x = x.contiguous()
    if y.stride()[-1:] != (1,):
        y = y.contiguous()
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = x.numel()
    relu_mul_kernel[(triton.cdiv(n, block),)](x, y, out, n, BLOCK=block)
    return out


answer = relu_mul
