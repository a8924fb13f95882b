# expect: fail contiguity judged by the last stride alone (softmax's test): a column slice x[:, a:b] is passed as is, its rows are not side by side
# hint: contiguous|stride|layout|slice|not at ptr
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


def _flat(t):
    # the chapter's softmax copies only when stride(1) != 1; copied here as "stride(-1) != 1"
    # it catches the transpose and y[::2], but not a slice of columns of a wider matrix
    if t.dim() > 0 and t.stride(-1) != 1:
        t = t.contiguous()
    return t


def relu_mul(x, y, block=1024):
    x, y = _flat(x), _flat(y)
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = x.numel()
    relu_mul_kernel[(triton.cdiv(n, block),)](x, y, out, n, BLOCK=block)
    return out


answer = relu_mul
