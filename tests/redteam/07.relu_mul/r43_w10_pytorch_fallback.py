# expect: fail Falls back to torch.relu(x) * y whenever an input is not contiguous, so for the transposed and strided cases the result is not computed by relu_mul_kernel at all (and is two kernels, 5 n floats moved).
# hint: kernel|fallback|pytorch|relu|computed by|torch\.relu
# name: relu_mul
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
    if not (x.is_contiguous() and y.is_contiguous()):
        return (torch.relu(x) * y).to(x.dtype).contiguous()  # rare case: let PyTorch do it
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = x.numel()
    relu_mul_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
    return out
