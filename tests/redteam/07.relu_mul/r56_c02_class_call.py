# expect: pass a callable object holding the block size; copies an input only when it is not contiguous
# hint:
# name: relu_mul
import torch
import triton
import triton.language as tl


@triton.jit
def relu_mul_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    start = tl.program_id(0) * BLOCK
    idx = start + tl.arange(0, BLOCK)
    inside = idx < n
    a = tl.load(x_ptr + idx, mask=inside, other=0.0)
    b = tl.load(y_ptr + idx, mask=inside, other=0.0)
    result = tl.maximum(a, 0.0) * b
    tl.store(out_ptr + idx, result, mask=inside)


class ReluMul:
    """relu(x) * y by one launch of relu_mul_kernel over blocks of `block` elements."""

    def __init__(self, block=1024):
        self.block = block

    @staticmethod
    def _dense(t):
        return t if t.is_contiguous() else t.contiguous()

    def __call__(self, x, y):
        xs, ys = self._dense(x), self._dense(y)
        out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
        n = out.numel()
        grid = lambda meta: (triton.cdiv(n, meta["BLOCK"]),)
        relu_mul_kernel[grid](xs, ys, out, n, BLOCK=self.block)
        return out


relu_mul = ReluMul(block=512)
