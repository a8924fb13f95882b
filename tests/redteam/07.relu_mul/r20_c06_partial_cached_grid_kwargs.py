# expect: pass functools.partial binding the block, an lru_cache'd grid function, all-keyword launch
# hint: 
import functools
import os

os.environ["TRITON_INTERPRET"] = "1"

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


@functools.lru_cache(maxsize=64)
def _grid(n, block):
    return (triton.cdiv(n, block),)


def _relu_mul(x, y, *, block):
    x = x.contiguous()
    y = y.contiguous()
    out = torch.empty(tuple(x.shape), dtype=x.dtype, device=x.device)
    n = x.numel()
    relu_mul_kernel[_grid(n, block)](x_ptr=x, y_ptr=y, out_ptr=out, n=n, BLOCK=block)
    return out


relu_mul = functools.partial(_relu_mul, block=64)

answer = relu_mul
