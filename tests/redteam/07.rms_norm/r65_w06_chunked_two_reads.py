# expect: pass loops over the row in chunks of a fixed BLOCK of 64 and reads every row twice (a sum pass, then a scale pass), instead of one block as long as the row and one pass: written as a wrong answer, judged right as r62_c05, r51_w09 and the chunked two-pass kernels of rounds 19, 20 and 32 were: one kernel, launched once, nothing outside it
# hint:
# name: rms_norm
# Wrong: the prompt asks for one program per row with a block of next_power_of_2(n_cols) and one
# pass over memory; the online-softmax style loop reads rows longer than 64 twice. Values right.
import torch
import triton
import triton.language as tl


@triton.jit
def rms_norm_kernel(x_ptr, out_ptr, x_row_stride, out_row_stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(axis=0)
    x_row = x_ptr + row * x_row_stride
    out_row = out_ptr + row * out_row_stride
    total = 0.0
    for start in range(0, n_cols, BLOCK):  # pass 1: the sum of squares
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(x_row + cols, mask=cols < n_cols, other=0.0).to(tl.float32)
        total += tl.sum(x * x, axis=0)
    inv_rms = 1.0 / tl.sqrt(total / n_cols + eps)
    for start in range(0, n_cols, BLOCK):  # pass 2: scale and store
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(x_row + cols, mask=mask, other=0.0).to(tl.float32)
        tl.store(out_row + cols, x * inv_rms, mask=mask)


def rms_norm(x, eps=1e-6, block=64):
    """Each row of the 2-D x divided by its root mean square, computed by rms_norm_kernel."""
    if x.stride(1) != 1:
        x = x.contiguous()
    n_rows, n_cols = x.shape
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    rms_norm_kernel[(n_rows,)](x, out, x.stride(0), out.stride(0), n_cols, eps, BLOCK=block)
    return out
