# expect: fail launches the kernel once per row of a multi-dimensional input (a row of the last dimension at a time), not once
# hint: launch|once|more than one|kernels?|calls?
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
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    if x.dim() <= 1:
        xs, ys = x.contiguous(), y.contiguous()
        relu_mul_kernel[(triton.cdiv(xs.numel(), block),)](xs, ys, out, xs.numel(), BLOCK=block)
        return out
    # "a transposed matrix's rows are not side by side": handle one row at a time
    x2, y2, o2 = x.reshape(-1, x.shape[-1]), y.reshape(-1, y.shape[-1]), out.view(-1, x.shape[-1])
    for i in range(x2.shape[0]):
        xr, yr = x2[i].contiguous(), y2[i].contiguous()
        n = xr.numel()
        relu_mul_kernel[(triton.cdiv(n, block),)](xr, yr, o2[i], n, BLOCK=block)
    return out


answer = relu_mul
