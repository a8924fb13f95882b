# expect: pass
# hint:
# Right: a general launcher bound with functools.partial (BLOCK=256, fixed); flattens with
# contiguous().view(-1) (a copy only when needed), returns a flat output viewed in x's shape.
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
    tl.store(out_ptr + offsets, tl.maximum(x, 0.0) * y, mask=mask)


def _launch(x, y, *, kernel, block):
    flat_x, flat_y = x.contiguous().view(-1), y.contiguous().view(-1)  # element i at ptr + i
    n = flat_x.numel()
    out = torch.empty(n, dtype=x.dtype, device=x.device)
    kernel[(triton.cdiv(n, block),)](flat_x, flat_y, out, n, BLOCK=block)
    return out.view(x.shape)  # a contiguous view, no copy


relu_mul = functools.partial(_launch, kernel=relu_mul_kernel, block=256)
answer = relu_mul
