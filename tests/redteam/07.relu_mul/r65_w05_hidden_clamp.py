# expect: fail applies relu with PyTorch (clamp(min=0)) while making x contiguous, before the kernel: right values, but one PyTorch kernel more and x read twice, not the one fused kernel
# hint: clamp|relu|pytorch|torch (op|kernel)|extra (kernel|pass|copy)|two kernels|fus|5 ?n|read.*once|outside the kernel
# Wrong: the exercise is one kernel that reads x and y once (3 n floats moved); clamp writes
# relu(x) to memory and the kernel reads it back (5 n), which is what the fusion was to avoid.
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
    """relu(x) * y, element by element, computed by relu_mul_kernel."""
    x, y = x.contiguous().clamp(min=0), y.contiguous()  # relu early: the kernel's is then a no-op
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = x.numel()
    relu_mul_kernel[(triton.cdiv(n, block),)](x, y, out, n, BLOCK=block)
    return out


answer = relu_mul
