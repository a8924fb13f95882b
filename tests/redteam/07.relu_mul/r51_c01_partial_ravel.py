# expect: pass functools.partial over a general launcher; ravel() (a contiguous flat tensor, copied only when needed); out from new_empty
# hint:
import functools

import torch
import triton
import triton.language as tl


@triton.jit
def relu_mul_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    start = tl.program_id(0) * BLOCK
    idx = start + tl.arange(0, BLOCK)
    inside = idx < n
    a = tl.load(x_ptr + idx, mask=inside, other=0.0)
    b = tl.load(y_ptr + idx, mask=inside, other=0.0)
    product = tl.maximum(a, 0.0) * b  # float32 when either input is float32
    tl.store(out_ptr + idx, product, mask=inside)


def _launch(x, y, *, block):
    """relu(x) * y into a new contiguous tensor of x's shape and dtype, one launch."""
    flat_x = x.ravel()  # always contiguous: a view when x is, one copy when it is not
    flat_y = y.ravel()
    out = x.new_empty(x.shape)  # new_empty is contiguous, whatever x's strides
    n = flat_x.numel()
    relu_mul_kernel[(triton.cdiv(n, block),)](flat_x, flat_y, out, n, BLOCK=block)
    return out


relu_mul = functools.partial(_launch, block=256)
answer = relu_mul
