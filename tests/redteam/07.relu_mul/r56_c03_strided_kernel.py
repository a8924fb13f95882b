# expect: pass the kernel reads the inputs through their strides (a 2-D view), so a transpose, a column slice or a stride-2 vector needs no copy
# hint:
import torch
import triton
import triton.language as tl


@triton.jit
def relu_mul_kernel(x_ptr, y_ptr, out_ptr, n, n_cols,
                    x_s0, x_s1, y_s0, y_s1, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)  # element i of the output, row-major
    mask = offsets < n
    row = offsets // n_cols
    col = offsets % n_cols
    x = tl.load(x_ptr + row * x_s0 + col * x_s1, mask=mask)
    y = tl.load(y_ptr + row * y_s0 + col * y_s1, mask=mask)
    tl.store(out_ptr + offsets, tl.maximum(x, 0.0) * y, mask=mask)


def _as_2d(t):
    """A 2-D view of t in row-major order of its elements (a copy only when no view exists)."""
    if t.dim() == 0:
        return t.reshape(1, 1)
    return t.reshape(-1, t.shape[-1]) if t.dim() > 1 else t.unsqueeze(0)


def relu_mul(x, y):
    """relu(x) * y, element by element, computed by relu_mul_kernel."""
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = out.numel()
    if n == 0:
        return out
    x2, y2 = _as_2d(x), _as_2d(y)
    block = 1024
    relu_mul_kernel[(triton.cdiv(n, block),)](
        x2, y2, out, n, x2.shape[1],
        x2.stride(0), x2.stride(1), y2.stride(0), y2.stride(1),
        BLOCK=block,
    )
    return out


answer = relu_mul
