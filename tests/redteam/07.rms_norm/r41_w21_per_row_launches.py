# expect: fail launches the kernel once per row, each a grid of one program (the prompt: launched once, a grid of one program per row)
# hint: (launched \d+ kernels|one launch per row)
# name: rms_norm
import torch
import triton
import triton.language as tl


@triton.jit
def rms_norm_kernel(x_ptr, out_ptr, x_row_stride, out_row_stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(axis=0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * x_row_stride + cols, mask=mask, other=0.0).to(tl.float32)
    rms = tl.sqrt(tl.sum(x * x, axis=0) / n_cols + eps)
    tl.store(out_ptr + row * out_row_stride + cols, x / rms, mask=mask)


def rms_norm(x, eps=1e-6):
    x = x if x.stride(1) == 1 else x.contiguous()
    n_rows, n_cols = x.shape
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    block = triton.next_power_of_2(n_cols)
    for i in range(n_rows):
        rms_norm_kernel[(1,)](x[i], out[i], x.stride(0), out.stride(0), n_cols, eps, BLOCK=block)
    return out
