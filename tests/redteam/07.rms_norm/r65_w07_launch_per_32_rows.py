# expect: fail launches the kernel once per 32 rows (several launches for more than 32 rows) instead of once over a grid of one program per row
# hint: launch|once|grid|one program per row|programs? per row|n_rows|number of programs
# name: rms_norm
# Wrong: the prompt says rms_norm launches its kernel once, over one program per row; inputs of
# at most 32 rows launch once and hide it. Values right.
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
    tl.store(out_ptr + row * out_row_stride + cols, x / tl.sqrt(mean_square + eps), mask=mask)

ROWS_PER_LAUNCH = 32  # keep each launch small


def rms_norm(x, eps=1e-6):
    """Each row of the 2-D x divided by its root mean square, computed by rms_norm_kernel."""
    if x.stride(1) != 1:
        x = x.contiguous()
    n_rows, n_cols = x.shape
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    block = triton.next_power_of_2(n_cols)
    for first in range(0, n_rows, ROWS_PER_LAUNCH):
        rows = min(ROWS_PER_LAUNCH, n_rows - first)
        rms_norm_kernel[(rows,)](
            x[first:], out[first:], x.stride(0), out.stride(0), n_cols, eps, BLOCK=block
        )
    return out
