# expect: pass a class with __call__, tl.where for relu, contiguous().view(-1) and empty_like(contiguous_format)
# hint: 
import torch
import triton
import triton.language as tl


@triton.jit
def relu_mul_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    start = tl.program_id(0) * BLOCK
    offsets = start + tl.arange(0, BLOCK)
    in_range = offsets < n
    a = tl.load(x_ptr + offsets, mask=in_range, other=0.0)
    b = tl.load(y_ptr + offsets, mask=in_range, other=0.0)
    result = tl.where(a > 0, a, 0.0) * b
    tl.store(out_ptr + offsets, result, mask=in_range)


class ReluMul:
    """relu(x) * y in one pass, a launch of relu_mul_kernel."""

    def __init__(self, block=512):
        self.block = block

    def __call__(self, x, y):
        flat_x = x.contiguous().view(-1)
        flat_y = y.contiguous().view(-1)
        out = torch.empty_like(x, memory_format=torch.contiguous_format)
        n = flat_x.numel()
        if n:
            relu_mul_kernel[(triton.cdiv(n, self.block),)](flat_x, flat_y, out, n, BLOCK=self.block)
        return out


relu_mul = ReluMul()
answer = relu_mul
