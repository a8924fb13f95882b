# expect: fail results are memoized by the input's address, shape and strides: a tensor changed in place (or a new one that lands at a freed one's address) gets the stale earlier result, with no launch
# hint: cache|memo|stale|in.place|modified|changed|address|data_ptr|launch|again|second call|called twice|reuse
import os

os.environ.setdefault("TRITON_INTERPRET", "1")  # before importing triton, as the notebook does

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


_results = {}  # rms_norm of an input already seen: no second launch


def rms_norm(x, eps=1e-6):
    """Each row of the 2-D x divided by its root mean square, computed by rms_norm_kernel."""
    key = (x.data_ptr(), tuple(x.shape), x.stride(), x.dtype, x.device, eps)
    if key in _results:
        return _results[key]
    if x.stride(1) != 1:
        x = x.contiguous()
    n_rows, n_cols = x.shape
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    block = triton.next_power_of_2(n_cols)
    rms_norm_kernel[(n_rows,)](x, out, x.stride(0), out.stride(0), n_cols, eps, BLOCK=block)
    _results[key] = out
    return out


answer = rms_norm
