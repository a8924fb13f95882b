# expect: fail keeps the output buffer of each shape and dtype between calls, so a second call overwrites and returns the tensor the first call returned
# hint: cache|reus|same tensor|alias|new tensor|previous|between calls
import torch
import triton
import triton.language as tl

_buffers = {}


@triton.jit
def relu_mul_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, tl.maximum(x, 0.0) * y, mask=mask)


def relu_mul(x, y, block=1024):
    x, y = x.contiguous(), y.contiguous()
    key = (tuple(x.shape), x.dtype, x.device)
    if key not in _buffers:  # allocate once per shape
        _buffers[key] = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    out = _buffers[key]
    n = x.numel()
    relu_mul_kernel[(triton.cdiv(n, block),)](x, y, out, n, BLOCK=block)
    return out


answer = relu_mul
