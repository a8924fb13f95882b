# expect: pass flat contiguous copies, x.new_empty, a view back to x's shape, and a print per call
# hint: 
import torch
import triton
import triton.language as tl


@triton.jit
def relu_mul_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    keep = offs < n
    x = tl.load(x_ptr + offs, mask=keep)
    relu_x = tl.maximum(x, 0.0)
    y = tl.load(y_ptr + offs, mask=keep)
    tl.store(out_ptr + offs, relu_x * y, mask=keep)


def relu_mul(x, y):
    """relu(x) * y, element by element, computed by relu_mul_kernel."""
    xs = x.flatten().contiguous()
    ys = y.flatten().contiguous()
    n = xs.numel()
    out = x.new_empty(n)  # 1-D, contiguous
    block = 128
    programs = (n + block - 1) // block
    print(f"relu_mul: {n} elements, {programs} programs of {block}")
    if programs:
        relu_mul_kernel[(programs,)](xs, ys, out, n, BLOCK=block)
    return out.view(x.shape)


answer = relu_mul
