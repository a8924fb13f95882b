# expect: pass a callable object holding BLOCK; inputs flattened with torch.flatten (copies when not contiguous), output viewed to x's shape
# hint: 
import os
os.environ["TRITON_INTERPRET"] = "1"
import torch
import triton
import triton.language as tl

@triton.jit
def relu_mul_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    v = tl.maximum(tl.load(x_ptr + offs, mask=m), 0.0) * tl.load(y_ptr + offs, mask=m)
    tl.store(out_ptr + offs, v, mask=m)


class ReluMul:
    def __init__(self, block=1024):
        self.block = block

    def __call__(self, x, y):
        xs = torch.flatten(x).contiguous()
        ys = torch.flatten(y).contiguous()
        out = torch.empty(xs.numel(), dtype=x.dtype, device=x.device)
        n = xs.numel()
        relu_mul_kernel[(triton.cdiv(n, self.block) or 1,)](xs, ys, out, n, BLOCK=self.block)
        return out.reshape(x.shape)


answer = ReluMul()
