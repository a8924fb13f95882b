# expect: fail computes each row's norm with PyTorch (torch.linalg.vector_norm, imported as _row_norm) outside the kernel; the kernel only scales: a pass more over x
# hint: (in|inside|outside|by|with) (the|your|rms_norm_)kernel|pytorch|vector_norm|linalg|extra pass|one pass|passes? more|reads? x twice
# name: rms_norm
# Wrong: the prompt says the kernel does all the work in one pass, rms_norm computed by it; here
# PyTorch reads x once for the norms and the kernel reads it again. Values right.
import torch
import triton
import triton.language as tl
from torch.linalg import vector_norm as _row_norm


@triton.jit
def rms_norm_kernel(x_ptr, rms_ptr, out_ptr, x_row_stride, out_row_stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(axis=0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * x_row_stride + cols, mask=mask, other=0.0).to(tl.float32)
    rms = tl.load(rms_ptr + row)
    tl.store(out_ptr + row * out_row_stride + cols, x / rms, mask=mask)


def rms_norm(x, eps=1e-6):
    """Each row of the 2-D x divided by its root mean square, computed by rms_norm_kernel."""
    if x.stride(1) != 1:
        x = x.contiguous()
    n_rows, n_cols = x.shape
    norms = _row_norm(x, dim=1, dtype=torch.float32)  # sqrt of each row's sum of squares, in float32
    rms = torch.sqrt(norms * norms / n_cols + eps)  # n_rows floats only
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    rms_norm_kernel[(n_rows,)](
        x, rms, out, x.stride(0), out.stride(0), n_cols, BLOCK=triton.next_power_of_2(n_cols)
    )
    return out
