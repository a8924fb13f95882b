# expect: pass
# hint:
# Right: Triton's tutorial idiom, a grid given as a function of the launch's meta-parameters
# (cdiv(n, meta["BLOCK"])), with num_warps; torch.empty with x's shape, dtype and device.
import torch
import triton
import triton.language as tl

BLOCK_SIZE = 2048


@triton.jit
def relu_mul_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    start = tl.program_id(0) * BLOCK
    offsets = start + tl.arange(0, BLOCK)
    mask = offsets < n
    a = tl.load(x_ptr + offsets, mask=mask)
    b = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, tl.maximum(a, 0.0) * b, mask=mask)


def relu_mul(x, y):
    """relu(x) * y, element by element, computed by relu_mul_kernel."""
    x = x.contiguous()
    y = y.contiguous()
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = x.numel()

    def grid(meta):
        return (triton.cdiv(n, meta["BLOCK"]),)

    relu_mul_kernel[grid](x, y, out, n, BLOCK=BLOCK_SIZE, num_warps=4)
    return out


answer = relu_mul
