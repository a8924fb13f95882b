# expect: pass output from torch.empty_strided with row-major strides, keyword launch, int64 offsets
# hint: 
import os

os.environ["TRITON_INTERPRET"] = "1"

import torch
import triton
import triton.language as tl

BLOCK_SIZE = 256


@triton.jit
def relu_mul_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    start = tl.program_id(axis=0).to(tl.int64) * BLOCK  # no int32 overflow on huge tensors
    idx = start + tl.arange(0, BLOCK)
    ok = idx < n
    xv = tl.load(x_ptr + idx, mask=ok, other=0.0)
    yv = tl.load(y_ptr + idx, mask=ok, other=0.0)
    tl.store(out_ptr + idx, tl.maximum(xv, 0.0) * yv, mask=ok)


def _row_major_strides(shape):
    strides, step = [], 1
    for size in reversed(shape):
        strides.append(step)
        step *= max(size, 1)
    return tuple(reversed(strides))


def relu_mul(x, y):
    """relu(x) * y, element by element, computed by relu_mul_kernel."""
    xc = x.contiguous()
    yc = y.contiguous()
    out = torch.empty_strided(tuple(x.shape), _row_major_strides(x.shape), dtype=x.dtype, device=x.device)
    total = xc.numel()
    if total > 0:
        relu_mul_kernel[(triton.cdiv(total, BLOCK_SIZE),)](
            x_ptr=xc, y_ptr=yc, out_ptr=out, n=total, BLOCK=BLOCK_SIZE
        )
    return out


answer = relu_mul
