# expect: fail casts mixed-dtype inputs to float32 with PyTorch before the launch: a whole extra read and write of one input, more than 3 n floats moved
# hint: cast|\.to\(|copy|extra|pass|bytes|dtype|conversion
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


def relu_mul(x, y, block=1024):
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    if x.dtype != y.dtype:  # compute in float32, as PyTorch does
        x, y = x.to(torch.float32), y.to(torch.float32)
    x, y = x.contiguous(), y.contiguous()
    n = x.numel()
    relu_mul_kernel[(triton.cdiv(n, block),)](x, y, out, n, BLOCK=block)
    return out


answer = relu_mul
