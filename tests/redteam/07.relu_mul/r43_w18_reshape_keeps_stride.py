# expect: fail Flattens the inputs with reshape(-1), trusting it to copy a non-contiguous input; for a 1-D y that is every other element of a longer vector reshape(-1) returns the same strided view (stride 2), so the kernel reads y_ptr + i, the wrong elements.
# hint: contiguous|stride|reshape|layout|not contiguous|y
# name: relu_mul
import torch
import triton
import triton.language as tl

_BLOCK = 128


@triton.jit
def relu_mul_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    start = tl.program_id(0) * BLOCK
    idx = start + tl.arange(0, BLOCK)
    inside = idx < n
    a = tl.load(x_ptr + idx, mask=inside)
    b = tl.load(y_ptr + idx, mask=inside)
    relu_a = tl.where(a > 0, a, 0.0)
    tl.store(out_ptr + idx, relu_a * b, mask=inside)  # float32 * float16 -> float32


def relu_mul(x, y):
    """relu(x) * y, element by element, computed by relu_mul_kernel."""
    if x.shape != y.shape:
        raise ValueError(f"x and y must have one shape, got {tuple(x.shape)} and {tuple(y.shape)}")
    flat_x = x.reshape(-1)  # row-major element order; copies only a non-contiguous input
    flat_y = y.reshape(-1)
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = flat_x.numel()
    if n > 0:
        relu_mul_kernel[(triton.cdiv(n, _BLOCK),)](flat_x, flat_y, out, n, BLOCK=_BLOCK)
    return out
