# expect: fail keeps one module-level output buffer and returns it again on the next call of the same shape and dtype: not a new tensor, the first result is overwritten by the second call
# hint: new tensor|reus|same (buffer|tensor|storage|output)|alias|second call|overwr|cach|persist|between calls
# Wrong: the prompt asks relu_mul to return a *new* tensor; this one hands the caller the same
# buffer each time, so a result kept from an earlier call silently changes on the next one.
import torch
import triton
import triton.language as tl

_buffers = {}  # (shape, dtype, device) -> output, so the allocation is paid only once


@triton.jit
def relu_mul_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, tl.maximum(x, 0.0) * y, mask=mask)


def relu_mul(x, y, block=1024):
    """relu(x) * y, element by element, computed by relu_mul_kernel."""
    x, y = x.contiguous(), y.contiguous()
    key = (tuple(x.shape), x.dtype, x.device)
    out = _buffers.get(key)
    if out is None:
        out = _buffers[key] = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = x.numel()
    relu_mul_kernel[(triton.cdiv(n, block),)](x, y, out, n, BLOCK=block)
    return out


answer = relu_mul
