# expect: pass loads each row twice, a block as long as the row (a pass for the sum of squares, one to normalize): judged right, as the chunked two-pass kernels of rounds 19, 20 and 32 were
# hint: 
import torch
import triton
import triton.language as tl


@triton.jit
def rms_norm_kernel(x_ptr, out_ptr, x_row_stride, out_row_stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(axis=0)
    x_row = x_ptr + row * x_row_stride
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    # pass 1: the mean of the squares, in float32
    first = tl.load(x_row + cols, mask=mask, other=0.0).to(tl.float32)
    inv_rms = 1.0 / tl.sqrt(tl.sum(first * first, axis=0) / n_cols + eps)
    # pass 2, as the online softmax does: read the row again and write it scaled
    x = tl.load(x_row + cols, mask=mask).to(tl.float32)
    tl.store(out_ptr + row * out_row_stride + cols, x * inv_rms, mask=mask)


def rms_norm(x, eps=1e-6):
    if x.stride(1) != 1:
        x = x.contiguous()
    n_rows, n_cols = x.shape
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    block = triton.next_power_of_2(n_cols)
    rms_norm_kernel[(n_rows,)](x, out, x.stride(0), out.stride(0), n_cols, eps, BLOCK=block)
    return out


answer = rms_norm
