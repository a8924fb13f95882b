# expect: pass flattened reshape(-1) inputs, empty_like with contiguous_format, tl.where relu
# hint:
# name: relu_mul
import torch
import triton
import triton.language as tl


@triton.jit
def relu_mul_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    block_id = tl.program_id(0)
    lanes = tl.arange(0, BLOCK)
    pos = block_id * BLOCK + lanes
    ok = pos < n
    xv = tl.load(x_ptr + pos, mask=ok, other=0.0)
    yv = tl.load(y_ptr + pos, mask=ok, other=0.0)
    r = tl.where(xv > 0, xv, 0.0)
    tl.store(out_ptr + pos, r * yv, mask=ok)


def relu_mul(x, y):
    """relu(x) * y, element by element, computed by relu_mul_kernel."""
    # reshape(-1) copies whenever the layout is not flat: element i is then at ptr + i
    flat_x = x.reshape(-1).contiguous()
    flat_y = y.reshape(-1).contiguous()
    out = torch.empty_like(x, memory_format=torch.contiguous_format)
    n = flat_x.numel()
    if n == 0:
        return out
    block = 128
    relu_mul_kernel[(triton.cdiv(n, block),)](flat_x, flat_y, out.view(-1), n, BLOCK=block)
    return out
