# expect: pass both operands converted to float32 inside the kernel, stored back in x's dtype; inputs passed as flat views of contiguous tensors, an empty input returned without a launch
# hint:
import torch
import triton
import triton.language as tl

BLOCK_SIZE = 128


@triton.jit
def relu_mul_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    keep = offs < n
    xv = tl.load(x_ptr + offs, mask=keep).to(tl.float32)
    yv = tl.load(y_ptr + offs, mask=keep).to(tl.float32)
    prod = tl.maximum(xv, 0.0) * yv  # in float32 whatever the inputs' dtypes
    tl.store(out_ptr + offs, prod.to(out_ptr.dtype.element_ty), mask=keep)


def _flat(t):
    # element i at ptr + i: a row-major copy only when t is not contiguous, then a flat view
    return t.contiguous().view(-1)


def relu_mul(x, y):
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = x.numel()
    if n:
        relu_mul_kernel[(triton.cdiv(n, BLOCK_SIZE),)](
            _flat(x), _flat(y), out, n, BLOCK=BLOCK_SIZE
        )
    return out


answer = relu_mul
