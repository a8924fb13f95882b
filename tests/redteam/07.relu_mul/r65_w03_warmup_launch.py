# expect: fail launches the kernel twice per call (a "warm-up" launch to compile it, then the real one): right values, but the prompt says launched once
# hint: launch(ed|es)? (once|twice|two|more)|warm.?up|two launches|extra launch|second launch|more than one (launch|kernel)|launch count|number of launches
# Wrong: the prompt asks for one kernel launched once; the warm-up launch reads x and y and
# writes the output a second time (6 n floats moved instead of 3 n) on every call.
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


def relu_mul(x, y, block=1024):
    """relu(x) * y, element by element, computed by relu_mul_kernel."""
    x, y = x.contiguous(), y.contiguous()
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = x.numel()
    grid = (triton.cdiv(n, block),)
    relu_mul_kernel[grid](x, y, out, n, BLOCK=block)  # warm-up: compile first (chapter 2)
    relu_mul_kernel[grid](x, y, out, n, BLOCK=block)
    return out


answer = relu_mul
