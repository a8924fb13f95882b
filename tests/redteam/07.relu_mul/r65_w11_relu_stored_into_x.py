# expect: fail the kernel writes relu(x) back into x_ptr: a contiguous x passed by the caller is modified in place (a non-contiguous one is not, since the kernel then gets a copy)
# hint: input|modif|mutat|overwr|in.place|changed|caller|x_ptr|store.*x|writes? (to|into) x
# Wrong: relu_mul must return a new tensor and leave its inputs alone; the extra store also
# writes n floats more than the 3 n the prompt counts. Results themselves are right.
import torch
import triton
import triton.language as tl


@triton.jit
def relu_mul_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    x = tl.maximum(x, 0.0)
    tl.store(x_ptr + offsets, x, mask=mask)  # keep relu(x), as torch.relu_ would
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x * y, mask=mask)


def relu_mul(x, y, block=1024):
    """relu(x) * y, element by element, computed by relu_mul_kernel."""
    x, y = x.contiguous(), y.contiguous()
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = x.numel()
    relu_mul_kernel[(triton.cdiv(n, block),)](x, y, out, n, BLOCK=block)
    return out


answer = relu_mul
