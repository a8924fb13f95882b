# expect: fail casts both inputs to float32 on the host and the result back: three extra passes over memory for float16/bfloat16 inputs
# hint: float32|\.float\(\)|cast|convert|dtype.{0,30}(copy|pass)|extra (pass|cop|read|write)|bytes moved|more than 3
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


def relu_mul(x, y):
    """relu(x) * y, element by element, computed by relu_mul_kernel."""
    xf = x.float().contiguous()  # compute in float32 for accuracy
    yf = y.float().contiguous()
    out = torch.empty(xf.shape, dtype=torch.float32, device=x.device)
    n = xf.numel()
    BLOCK = 512
    relu_mul_kernel[(triton.cdiv(n, BLOCK),)](xf, yf, out, n, BLOCK=BLOCK)
    return out.to(x.dtype)


answer = relu_mul
