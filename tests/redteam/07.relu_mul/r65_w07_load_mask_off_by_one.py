# expect: fail the loads' mask is offsets <= n, so when n is not a multiple of the block the last program reads one element past the end of x and y (the store's mask is right, so the values are right)
# hint: mask|out of bounds|outside|past the end|beyond|bound|off.by.one|<= ?n|illegal|overrun
# Wrong: chapter 7 requires a mask offsets < n on every load and store; element n is memory that
# is not x (or y), read without a word by the plain interpreter, an illegal access on a GPU.
import torch
import triton
import triton.language as tl


@triton.jit
def relu_mul_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    in_range = offsets <= n  # lanes up to the last element
    x = tl.load(x_ptr + offsets, mask=in_range)
    y = tl.load(y_ptr + offsets, mask=in_range)
    tl.store(out_ptr + offsets, tl.maximum(x, 0.0) * y, mask=offsets < n)


def relu_mul(x, y, block=1024):
    """relu(x) * y, element by element, computed by relu_mul_kernel."""
    x, y = x.contiguous(), y.contiguous()
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = x.numel()
    relu_mul_kernel[(triton.cdiv(n, block),)](x, y, out, n, BLOCK=block)
    return out


answer = relu_mul
