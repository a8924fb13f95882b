# expect: fail hands non-contiguous inputs (a transposed x) to torch.nn.functional.rms_norm instead of the kernel
# hint: (torch|pytorch|F\.)\s*\.?rms_norm|fall ?back|(not|never) (by|through|with) (the|your) (kernel|triton)|kernel (was )?not (launched|used|called)|without (the|your) kernel|transpos
import os

os.environ["TRITON_INTERPRET"] = "1"

import torch
import triton
import triton.language as tl


@triton.jit
def rms_norm_kernel(x_ptr, out_ptr, x_row_stride, out_row_stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(axis=0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * x_row_stride + cols, mask=mask, other=0.0).to(tl.float32)
    mean_square = tl.sum(x * x, axis=0) / n_cols
    y = x / tl.sqrt(mean_square + eps)
    tl.store(out_ptr + row * out_row_stride + cols, y, mask=mask)


def rms_norm(x, eps=1e-6):
    """Each row of the 2-D x divided by its root mean square, computed by rms_norm_kernel."""
    if x.stride(1) != 1:  # the kernel wants side-by-side row elements: let PyTorch do this case
        return torch.nn.functional.rms_norm(x, (x.shape[1],), eps=eps)
    n_rows, n_cols = x.shape
    out = torch.empty((n_rows, n_cols), dtype=x.dtype, device=x.device)
    rms_norm_kernel[(n_rows,)](x, out, x.stride(0), out.stride(0), n_cols, eps, BLOCK=triton.next_power_of_2(n_cols))
    return out


answer = rms_norm
