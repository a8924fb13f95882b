# expect: fail the kernel stores relu(x) into out, loads it back and stores the product over it: the final output is right, but out is written twice and read once (5 n floats moved, not 3 n)
# hint: twice|more than once|once|extra (load|store|read|write)|traffic|bytes|5 ?n|3 ?n|intermediate|round.?trip|reads? (back|out)|load.*out
# Wrong: the exercise is a kernel that reads x and y once and writes relu(x) * y once; this one
# puts the intermediate through memory, as the two PyTorch kernels did, so only the end state is right.
import torch
import triton
import triton.language as tl


@triton.jit
def relu_mul_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, tl.maximum(x, 0.0), mask=mask)  # step 1: relu
    r = tl.load(out_ptr + offsets, mask=mask).to(tl.float32)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, r * y, mask=mask)  # step 2: times y


def relu_mul(x, y, block=1024):
    """relu(x) * y, element by element, computed by relu_mul_kernel."""
    x, y = x.contiguous(), y.contiguous()
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = x.numel()
    relu_mul_kernel[(triton.cdiv(n, block),)](x, y, out, n, BLOCK=block)
    return out


answer = relu_mul
