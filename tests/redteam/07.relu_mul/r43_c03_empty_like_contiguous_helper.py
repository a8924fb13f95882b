# expect: pass A helper makes each input contiguous only if it is not already, the output is torch.empty_like of the contiguous x, and the relu is a maximum against tl.zeros_like, with the product left to Triton's promotion (float32 for float32 x and float16 y).
# hint: 
# name: relu_mul
import torch
import triton
import triton.language as tl


@triton.jit
def relu_mul_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(axis=0) * BLOCK + tl.arange(0, BLOCK)
    in_range = offs < n
    xv = tl.load(x_ptr + offs, mask=in_range, other=0.0)
    yv = tl.load(y_ptr + offs, mask=in_range, other=0.0)
    relu = tl.maximum(xv, tl.zeros_like(xv))
    prod = relu * yv  # float32 * float16 -> float32
    tl.store(out_ptr + offs, prod, mask=in_range)


def _dense(t):
    """t itself when its element i is at ptr + i, else a contiguous copy."""
    return t if t.is_contiguous() else t.contiguous()


def relu_mul(x, y):
    """relu(x) * y, element by element, computed by relu_mul_kernel."""
    xc, yc = _dense(x), _dense(y)
    out = torch.empty_like(xc)  # xc is contiguous, so out is too; x's dtype and device
    n = xc.numel()
    block = 512
    relu_mul_kernel[(triton.cdiv(n, block),)](xc, yc, out, n, BLOCK=block)
    return out
