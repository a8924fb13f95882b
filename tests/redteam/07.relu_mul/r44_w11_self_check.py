# expect: fail verifies its own result against torch.relu(x) * y inside relu_mul: the unfused two kernels run on every call, reading x and y again and writing relu(x), the very traffic the exercise removes.
# hint: once|pass|torch\.relu|read|extra|kernel
# name: relu_mul
import os

os.environ.setdefault("TRITON_INTERPRET", "1")  # as the exercise set-up cell does, before importing triton

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


def relu_mul(x, y):
    """relu(x) * y, element by element, computed by relu_mul_kernel."""
    xc, yc = x.contiguous(), y.contiguous()
    out = torch.empty(xc.shape, dtype=x.dtype, device=x.device)
    n = xc.numel()
    relu_mul_kernel[(triton.cdiv(n, 1024),)](xc, yc, out, n, BLOCK=1024)
    expected = (torch.relu(x) * y).to(x.dtype)  # a safety net
    torch.testing.assert_close(out, expected)
    return out
