# expect: fail Launches max(1, n // BLOCK) programs instead of triton.cdiv(n, BLOCK), so for a size above a block that is not a multiple of it the last partial block is never computed and those elements keep torch.empty's garbage.
# hint: cdiv|grid|partial|last block|multiple|tail|programs
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


BLOCK_SIZE = 256


def relu_mul(x, y):
    x, y = x.contiguous(), y.contiguous()
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = x.numel()
    grid = (max(1, n // BLOCK_SIZE),)  # at least one program
    relu_mul_kernel[grid](x, y, out, n, BLOCK=BLOCK_SIZE)
    return out
