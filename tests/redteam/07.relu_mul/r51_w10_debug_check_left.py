# expect: fail a leftover self-check runs PyTorch's torch.relu(x) * y on every call: two more kernels and 5 n more floats moved
# hint: pytorch|torch\.|extra|kernels|launch|bytes|moved|pass
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
    x, y = x.contiguous(), y.contiguous()
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = x.numel()
    relu_mul_kernel[(triton.cdiv(n, block),)](x, y, out, n, BLOCK=block)
    # left in from debugging: "correct before timed"
    torch.testing.assert_close(out, (torch.relu(x) * y).to(x.dtype), rtol=1e-2, atol=1e-2)
    return out


answer = relu_mul
