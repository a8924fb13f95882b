# expect: fail makes the output on d2lgpu.try_gpu() instead of x.device: right on a CPU-only machine, on the wrong device for a CPU x where there is a GPU, or for an x on cuda:1
# hint: device|cuda|try_gpu|x\.device
# open: GPU only: the device is picked at import, and on a machine without a GPU try_gpu() is the CPU, x's device in every case; as r63_w08 of 03.parameters
# name: rms_norm
# Wrong: the prompt makes the output with device=x.device; try_gpu() is the chapter's pick of a
# device, not x's, and agrees with it only when x happens to be on the first GPU (or there is none).
import torch
import triton
import triton.language as tl

import d2lgpu

device = d2lgpu.try_gpu()


@triton.jit
def rms_norm_kernel(x_ptr, out_ptr, x_row_stride, out_row_stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(axis=0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * x_row_stride + cols, mask=mask, other=0.0).to(tl.float32)
    mean_square = tl.sum(x * x, axis=0) / n_cols
    tl.store(out_ptr + row * out_row_stride + cols, x / tl.sqrt(mean_square + eps), mask=mask)


def rms_norm(x, eps=1e-6):
    """Each row of the 2-D x divided by its root mean square, computed by rms_norm_kernel."""
    if x.stride(1) != 1:
        x = x.contiguous()
    n_rows, n_cols = x.shape
    out = torch.empty(x.shape, dtype=x.dtype, device=device)
    rms_norm_kernel[(n_rows,)](
        x, out, x.stride(0), out.stride(0), n_cols, eps, BLOCK=triton.next_power_of_2(n_cols)
    )
    return out
