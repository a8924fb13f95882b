# expect: fail BLOCK is fixed at the first call's row length: a later call with longer rows reads and writes only its first BLOCK columns
# hint: next_power_of_2|block (too small|shorter|smaller|at least|of|from)|(longer|wider) (rows?|than)|row length|second call|later call|first call|cach|columns? (not|never) (written|computed|read)
# name: rms_norm
# Wrong: the block must be at least as long as each call's rows; cached from the first call,
# rows longer than it lose columns from the sum, and the columns past it are never written.
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

_BLOCK = None  # one block, one compiled kernel: no recompilation on later calls


def rms_norm(x, eps=1e-6):
    """Each row of the 2-D x divided by its root mean square, computed by rms_norm_kernel."""
    global _BLOCK
    if x.stride(1) != 1:
        x = x.contiguous()
    n_rows, n_cols = x.shape
    if _BLOCK is None:
        _BLOCK = triton.next_power_of_2(n_cols)
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    rms_norm_kernel[(n_rows,)](x, out, x.stride(0), out.stride(0), n_cols, eps, BLOCK=_BLOCK)
    return out
