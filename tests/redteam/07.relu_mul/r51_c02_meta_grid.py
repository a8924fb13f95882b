# expect: pass Triton's meta-parameter grid (a lambda over meta["BLOCK"]), explicit float32 arithmetic, copies only for non-contiguous inputs
# hint:
import torch
import triton
import triton.language as tl

BLOCK_SIZE = 512


@triton.jit
def relu_mul_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(axis=0) * BLOCK + tl.arange(0, BLOCK)
    keep = offs < n
    xv = tl.load(x_ptr + offs, mask=keep).to(tl.float32)
    yv = tl.load(y_ptr + offs, mask=keep).to(tl.float32)
    result = tl.maximum(xv, 0.0) * yv
    tl.store(out_ptr + offs, result.to(out_ptr.dtype.element_ty), mask=keep)


def _dense(t):
    return t if t.is_contiguous() else t.contiguous()


def relu_mul(x, y):
    x_c, y_c = _dense(x), _dense(y)
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = x_c.numel()

    def grid(meta):
        return (triton.cdiv(n, meta["BLOCK"]),)

    relu_mul_kernel[grid](x_c, y_c, out, n, BLOCK=BLOCK_SIZE)
    return out


answer = relu_mul
