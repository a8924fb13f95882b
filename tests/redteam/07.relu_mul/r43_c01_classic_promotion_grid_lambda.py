# expect: pass The chapter's add pattern with both inputs made contiguous, the output made with torch.empty(x.shape, dtype=x.dtype, device=x.device), Triton's type promotion making the product float32 for a float16 y (as PyTorch's), and a grid lambda over meta["BLOCK"].
# hint: 
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
    # float32 * float16 promotes to float32, as in PyTorch; tl.store converts to out's dtype
    tl.store(out_ptr + offsets, tl.maximum(x, 0.0) * y, mask=mask)


def relu_mul(x, y):
    """relu(x) * y, element by element, computed by relu_mul_kernel."""
    x, y = x.contiguous(), y.contiguous()  # the kernel reads element i at ptr + i
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = x.numel()
    grid = lambda meta: (triton.cdiv(n, meta["BLOCK"]),)  # noqa: E731
    relu_mul_kernel[grid](x, y, out, n, BLOCK=1024)
    return out
