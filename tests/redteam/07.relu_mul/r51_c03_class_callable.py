# expect: pass a small class holding the block size, __call__ does the launch; reshape(-1) for the flat views; empty_like of the contiguous input
# hint:
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


class ReluMul:
    """relu(x) * y by one launch of relu_mul_kernel; holds nothing but its block size."""

    def __init__(self, block=1024):
        assert block & (block - 1) == 0, "BLOCK must be a power of two"
        self.block = block

    def __call__(self, x, y):
        xc = x.contiguous()
        yc = y.contiguous()
        out = torch.empty_like(xc)  # xc is contiguous, so out is too
        n = xc.numel()
        relu_mul_kernel[(triton.cdiv(n, self.block),)](
            xc.reshape(-1), yc.reshape(-1), out.reshape(-1), n, BLOCK=self.block
        )
        return out


relu_mul = ReluMul(block=128)
answer = relu_mul
