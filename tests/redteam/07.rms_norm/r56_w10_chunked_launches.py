# expect: fail launches the kernel once per chunk of 16 rows (several launches for a taller x) instead of once over a grid of one program per row
# hint: launch|once|grid|single|one program per row|chunk
import torch
import triton
import triton.language as tl

ROWS_PER_LAUNCH = 16


@triton.jit
def rms_norm_kernel(x_ptr, out_ptr, x_row_stride, out_row_stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(axis=0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * x_row_stride + cols, mask=mask, other=0.0).to(tl.float32)
    mean_sq = tl.sum(x * x, axis=0) / n_cols
    y = x / tl.sqrt(mean_sq + eps)
    tl.store(out_ptr + row * out_row_stride + cols, y, mask=mask)


def rms_norm(x, eps=1e-6):
    """Each row of the 2-D x divided by its root mean square, computed by rms_norm_kernel."""
    if x.stride(1) != 1:
        x = x.contiguous()
    n_rows, n_cols = x.shape
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    block = triton.next_power_of_2(n_cols)
    for start in range(0, n_rows, ROWS_PER_LAUNCH):  # a small grid per launch
        stop = min(start + ROWS_PER_LAUNCH, n_rows)
        rms_norm_kernel[(stop - start,)](
            x[start:stop], out[start:stop], x.stride(0), out.stride(0), n_cols, eps, BLOCK=block
        )
    return out


answer = rms_norm
