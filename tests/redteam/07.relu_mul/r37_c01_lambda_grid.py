# expect: pass meta-parameter grid lambda, contiguous copies, torch.empty of x's shape
# hint:
# name: relu_mul
import torch
import triton
import triton.language as tl


@triton.jit
def relu_mul_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    start = tl.program_id(axis=0) * BLOCK
    idx = start + tl.arange(0, BLOCK)
    inside = idx < n
    a = tl.load(x_ptr + idx, mask=inside, other=0.0)
    b = tl.load(y_ptr + idx, mask=inside, other=0.0)
    tl.store(out_ptr + idx, tl.maximum(a, 0.0) * b, mask=inside)


def relu_mul(x, y):
    """relu(x) * y, element by element, computed by relu_mul_kernel."""
    xc = x.contiguous()
    yc = y.contiguous()
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    total = out.numel()
    grid = lambda meta: (triton.cdiv(total, meta["BLOCK"]),)  # noqa: E731
    relu_mul_kernel[grid](xc, yc, out, total, BLOCK=512)
    return out
