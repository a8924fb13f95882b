# expect: fail writes the result into x itself when x is contiguous (no new tensor): the caller's input is overwritten
# hint: in.place|input|overwr|modif|alias|new tensor|changed
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
    # "save an allocation": when x is already contiguous, store into x; each element is read
    # before it is written by the same lane, so the values come out right
    was_contiguous = x.is_contiguous()
    x, y = x.contiguous(), y.contiguous()
    out = x if was_contiguous else torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = x.numel()
    relu_mul_kernel[(triton.cdiv(n, block),)](x, y, out, n, BLOCK=block)
    return out


answer = relu_mul
