# expect: pass a class with __call__ under torch.no_grad, ravel() of contiguous inputs, int64 block start
# hint: 
import os

os.environ["TRITON_INTERPRET"] = "1"

import torch
import triton
import triton.language as tl


@triton.jit
def relu_mul_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    start = tl.program_id(0).to(tl.int64) * BLOCK
    offsets = start + tl.arange(0, BLOCK).to(tl.int64)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
    y = tl.load(y_ptr + offsets, mask=mask, other=0.0)
    tl.store(out_ptr + offsets, tl.maximum(x, 0.0) * y, mask=mask)


class ReluMul:
    def __init__(self, block=128):
        self.block = block

    def __call__(self, x, y):
        with torch.no_grad():
            x = x.contiguous().ravel()
            y = y.contiguous().ravel()
            out = torch.empty(x.numel(), dtype=x.dtype, device=x.device)
            n = out.numel()
            relu_mul_kernel[(triton.cdiv(n, self.block),)](x, y, out, n, BLOCK=self.block)
        return out

    def for_shape(self, x, y):
        return self(x, y).view(x.shape)


_impl = ReluMul()


def relu_mul(x, y):
    """relu(x) * y, element by element, computed by relu_mul_kernel."""
    return _impl.for_shape(x, y)


answer = relu_mul
