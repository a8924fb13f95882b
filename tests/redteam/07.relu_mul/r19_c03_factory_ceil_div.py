# expect: pass a factory returning the wrapper, grid by -(-n // BLOCK) instead of triton.cdiv, out as torch.empty_like of a contiguous copy
# hint: 
import os

os.environ["TRITON_INTERPRET"] = "1"

import torch
import triton
import triton.language as tl


@triton.jit
def relu_mul_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    block_start = tl.program_id(0) * BLOCK
    lanes = block_start + tl.arange(0, BLOCK)
    live = lanes < n
    xs = tl.load(x_ptr + lanes, mask=live)
    ys = tl.load(y_ptr + lanes, mask=live)
    tl.store(out_ptr + lanes, ys * tl.maximum(xs, 0.0), mask=live)


def make_relu_mul(block=64):
    def relu_mul(x, y):
        """relu(x) * y, element by element, computed by relu_mul_kernel."""
        xc = x.contiguous()
        yc = y.contiguous()
        out = torch.empty_like(xc)  # xc is contiguous, so out is too
        n = xc.numel()
        programs = -(-n // block)  # ceiling division
        if programs:
            relu_mul_kernel[(programs,)](xc, yc, out, n, BLOCK=block)
        return out

    return relu_mul


relu_mul = make_relu_mul(block=64)
answer = relu_mul
