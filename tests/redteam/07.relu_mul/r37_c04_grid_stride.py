# expect: pass grid-stride loop: a few programs each walk several blocks
# hint:
# name: relu_mul
import torch
import triton
import triton.language as tl


@triton.jit
def relu_mul_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    first = tl.program_id(0) * BLOCK
    step = tl.num_programs(0) * BLOCK
    for start in range(first, n, step):
        offs = start + tl.arange(0, BLOCK)
        mask = offs < n
        a = tl.load(x_ptr + offs, mask=mask)
        b = tl.load(y_ptr + offs, mask=mask)
        tl.store(out_ptr + offs, tl.maximum(a, 0.0) * b, mask=mask)


def relu_mul(x, y):
    """relu(x) * y, element by element, computed by relu_mul_kernel."""
    x_in, y_in = x.contiguous(), y.contiguous()
    result = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = x_in.numel()
    blocks = triton.cdiv(n, 64)
    programs = max(1, min(blocks, 4))  # each program loops over every 4th block
    relu_mul_kernel[(programs,)](x_in, y_in, result, n, BLOCK=64)
    return result
