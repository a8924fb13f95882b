# expect: pass
# hint:
# Right: a callable class instance holding the block size; copies an input only when
# is_contiguous() says so, one launch over cdiv(n, BLOCK) programs, output made with torch.empty.
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
    """relu(x) * y, element by element, computed by relu_mul_kernel."""

    def __init__(self, block=512):
        self.block = block

    def __call__(self, x, y):
        if not x.is_contiguous():
            x = x.contiguous()
        if not y.is_contiguous():
            y = y.contiguous()
        out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
        n = out.numel()
        relu_mul_kernel[(triton.cdiv(n, self.block),)](x, y, out, n, BLOCK=self.block)
        return out


relu_mul = ReluMul()
answer = relu_mul
