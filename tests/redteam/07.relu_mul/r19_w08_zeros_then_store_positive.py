# expect: fail output made with torch.zeros (an extra write pass) and the kernel stores only where x > 0: 4 n moved, not 3 n
# hint: zeros|extra (pass|write|fill|kernel)|fill|4 ?n|torch\.empty|bytes|memory traffic|store.{0,30}(every|all|only)
import os

os.environ["TRITON_INTERPRET"] = "1"

import torch
import triton
import triton.language as tl


@triton.jit
def relu_mul_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    in_range = offsets < n
    x = tl.load(x_ptr + offsets, mask=in_range, other=0.0)
    y = tl.load(y_ptr + offsets, mask=in_range, other=0.0)
    # relu(x) * y is 0 where x <= 0, and out is already 0 there
    tl.store(out_ptr + offsets, x * y, mask=in_range & (x > 0))


def relu_mul(x, y):
    """relu(x) * y, element by element, computed by relu_mul_kernel."""
    x, y = x.contiguous(), y.contiguous()
    out = torch.zeros(x.shape, dtype=x.dtype, device=x.device)
    n = x.numel()
    relu_mul_kernel[(triton.cdiv(n, 256),)](x, y, out, n, BLOCK=256)
    return out


answer = relu_mul
