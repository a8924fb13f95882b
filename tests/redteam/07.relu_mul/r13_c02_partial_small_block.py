# expect: pass functools.partial binding a small block, grid as a lambda of the meta-parameters
# hint: 
import functools

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
    tl.store(out_ptr + offsets, y * tl.maximum(x, 0.0), mask=mask)


def _relu_mul(x, y, *, block):
    x = x if x.is_contiguous() else x.contiguous()
    y = y if y.is_contiguous() else y.contiguous()
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = out.numel()
    if n == 0:
        return out
    grid = lambda meta: (triton.cdiv(n, meta["BLOCK"]),)  # noqa: E731
    relu_mul_kernel[grid](x, y, out, n, BLOCK=block)
    return out


relu_mul = functools.partial(_relu_mul, block=64)
answer = relu_mul
