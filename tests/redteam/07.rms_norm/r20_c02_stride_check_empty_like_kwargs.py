# expect: pass contiguous copy only when stride(1) != 1 (row slices keep their stride(0)), empty_like(x, memory_format=contiguous_format), keyword launch, 1/sqrt
# hint: 
import os

os.environ["TRITON_INTERPRET"] = "1"

import torch
import triton
import triton.language as tl


@triton.jit
def rms_norm_kernel(x_ptr, out_ptr, x_row_stride, out_row_stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    valid = offs < n_cols
    vals = tl.load(x_ptr + row * x_row_stride + offs, mask=valid, other=0.0)
    v32 = vals.to(tl.float32)
    ms = tl.sum(v32 * v32, axis=0) / n_cols
    scale = 1.0 / tl.sqrt(ms + eps)
    tl.store(out_ptr + row * out_row_stride + offs, v32 * scale, mask=valid)


def rms_norm(x, eps=1e-6):
    """Each row of the 2-D x divided by its root mean square, computed by rms_norm_kernel."""
    if x.stride(1) != 1:
        x = x.contiguous()
    n_rows, n_cols = x.shape
    out = torch.empty_like(x, memory_format=torch.contiguous_format)  # a row slice's out is dense
    rms_norm_kernel[(n_rows,)](
        x_ptr=x,
        out_ptr=out,
        x_row_stride=x.stride(0),
        out_row_stride=out.stride(0),
        n_cols=n_cols,
        eps=eps,
        BLOCK=triton.next_power_of_2(n_cols),
    )
    return out


answer = rms_norm
