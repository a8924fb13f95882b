# expect: fail launches the kernel in batches of 64 rows ("no more programs than multiprocessors"): more than one launch once x has over 64 rows
# hint: launch|once|grid|one program per row|programs?|kernels?
import torch
import triton
import triton.language as tl

ROWS_PER_LAUNCH = 64


@triton.jit
def rms_norm_kernel(x_ptr, out_ptr, x_row_stride, out_row_stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(axis=0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * x_row_stride + cols, mask=mask, other=0.0).to(tl.float32)
    mean_sq = tl.sum(x * x, axis=0) / n_cols
    tl.store(out_ptr + row * out_row_stride + cols, x / tl.sqrt(mean_sq + eps), mask=mask)


def rms_norm(x, eps=1e-6):
    if x.stride(1) != 1:
        x = x.contiguous()
    n_rows, n_cols = x.shape
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    block = triton.next_power_of_2(n_cols)
    for start in range(0, n_rows, ROWS_PER_LAUNCH):
        rows = min(ROWS_PER_LAUNCH, n_rows - start)
        rms_norm_kernel[(rows,)](
            x[start:], out[start:], x.stride(0), out.stride(0), n_cols, eps, BLOCK=block
        )
    return out


answer = rms_norm
