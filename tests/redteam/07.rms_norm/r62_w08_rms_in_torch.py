# expect: fail each row's 1/rms is computed with PyTorch (a float32 cast, a square, a mean, an rsqrt: several passes over x) and the kernel only multiplies
# hint: torch|pytorch|outside|in the kernel|one pass|pass|cast|copy|extra|kernel does all|float\(\)|mean
import os

os.environ.setdefault("TRITON_INTERPRET", "1")  # before importing triton, as the notebook does

import torch
import triton
import triton.language as tl


@triton.jit
def rms_norm_kernel(x_ptr, out_ptr, x_row_stride, out_row_stride, n_cols, inv_rms_ptr, BLOCK: tl.constexpr):
    row = tl.program_id(axis=0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * x_row_stride + cols, mask=mask, other=0.0).to(tl.float32)
    inv_rms = tl.load(inv_rms_ptr + row)
    tl.store(out_ptr + row * out_row_stride + cols, x * inv_rms, mask=mask)


def rms_norm(x, eps=1e-6):
    """Each row of the 2-D x divided by its root mean square, computed by rms_norm_kernel."""
    if x.stride(1) != 1:
        x = x.contiguous()
    n_rows, n_cols = x.shape
    # the reduction in float32 (float16 squares overflow), once per row
    inv_rms = torch.rsqrt(x.float().square().mean(dim=1) + eps)
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    block = triton.next_power_of_2(n_cols)
    rms_norm_kernel[(n_rows,)](x, out, x.stride(0), out.stride(0), n_cols, inv_rms, BLOCK=block)
    return out


answer = rms_norm
