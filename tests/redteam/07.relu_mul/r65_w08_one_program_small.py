# expect: fail sizes the block to the tensor (next power of two, capped at 8192), so every input of up to 8192 elements runs as ONE program for the whole tensor instead of a fixed BLOCK over cdiv(n, BLOCK) programs
# hint: one program|single program|fixed block|block size|BLOCK|grid|whole tensor|cdiv|programs|next_power_of_2|multiprocessor
# Wrong: the prompt asks for a fixed BLOCK over a grid of triton.cdiv(n, BLOCK) programs, "not
# one program for the whole tensor"; only tensors over 8192 elements get more than one here.
import torch
import triton
import triton.language as tl

MAX_BLOCK = 8192


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
    x, y = x.contiguous(), y.contiguous()
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = x.numel()
    block = min(triton.next_power_of_2(max(n, 1)), MAX_BLOCK)  # no wasted lanes on small inputs
    relu_mul_kernel[(triton.cdiv(n, block),)](x, y, out, n, BLOCK=block)
    return out


answer = relu_mul
