# expect: pass under torch.no_grad, early return for an empty x, new_empty output, grid as a lambda over meta, num_warps by block size
# hint: 
import os

os.environ["TRITON_INTERPRET"] = "1"

import torch
import triton
import triton.language as tl


@triton.jit
def rms_norm_kernel(x_ptr, out_ptr, x_row_stride, out_row_stride, n_cols, eps, BLOCK: tl.constexpr):
    r = tl.program_id(0)
    c = tl.arange(0, BLOCK)
    keep = c < n_cols
    a = tl.load(x_ptr + r * x_row_stride + c, mask=keep, other=0.0)
    a = a.to(tl.float32)
    denom = tl.sqrt(tl.sum(a * a, axis=0) / n_cols + eps)
    tl.store(out_ptr + r * out_row_stride + c, a / denom, mask=keep)


def rms_norm(x, eps=1e-6):
    """Each row of the 2-D x divided by its root mean square, computed by rms_norm_kernel."""
    with torch.no_grad():
        if x.stride(1) != 1:
            x = x.contiguous()
        n_rows, n_cols = x.shape
        out = x.new_empty((n_rows, n_cols))
        if out.numel() == 0:
            return out
        block = triton.next_power_of_2(n_cols)
        warps = 8 if block >= 2048 else 4
        grid = lambda meta: (n_rows,)  # noqa: E731
        rms_norm_kernel[grid](
            x, out, x.stride(0), out.stride(0), n_cols, eps, BLOCK=block, num_warps=warps
        )
    return out


answer = rms_norm
