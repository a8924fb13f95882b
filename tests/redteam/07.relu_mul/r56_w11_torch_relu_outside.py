# expect: fail computes relu with torch.relu before the launch and the kernel only multiplies: two kernels and 5 n floats moved, not one fused pass
# hint: relu|torch\.relu|fus|two kernels|extra|pass|launch|5 n
import torch
import triton
import triton.language as tl


@triton.jit
def relu_mul_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)  # already relu'd
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x * y, mask=mask)


def relu_mul(x, y, block=1024):
    r = torch.relu(x).contiguous()  # relu first, also makes it contiguous
    y = y.contiguous()
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = r.numel()
    relu_mul_kernel[(triton.cdiv(n, block),)](r, y, out, n, BLOCK=block)
    return out


answer = relu_mul
