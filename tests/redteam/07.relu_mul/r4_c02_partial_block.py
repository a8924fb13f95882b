# expect: pass relu_mul as a functools.partial of a launcher with a block size keyword; contiguous copies via .contiguous() then empty_like
# hint: 
import functools
import os
os.environ["TRITON_INTERPRET"] = "1"
import torch
import triton
import triton.language as tl

@triton.jit
def relu_mul_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, tl.maximum(x, 0.0) * y, mask=mask)


def _launch(x, y, block=512):
    x, y = x.contiguous(), y.contiguous()
    out = torch.empty_like(x)
    n = out.numel()
    relu_mul_kernel[(max(1, triton.cdiv(n, block)),)](x, y, out, n, BLOCK=block)
    return out


answer = functools.partial(_launch, block=256)
