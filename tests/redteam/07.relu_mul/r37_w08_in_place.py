# expect: fail writes the result into x (out_ptr is x) and returns x: the caller's input is overwritten
# hint: in.?place|overwr|modif|input|new tensor|changed|alias|same (tensor|memory|storage)
# name: relu_mul
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


def relu_mul(x, y):
    """relu(x) * y, element by element, computed by relu_mul_kernel."""
    x = x.contiguous()  # a no-op for a contiguous x: the same tensor
    y = y.contiguous()
    n = x.numel()
    block = 256
    # save memory: write the result over x, which is read just before in the same lane
    relu_mul_kernel[(triton.cdiv(n, block),)](x, y, x, n, BLOCK=block)
    return x
