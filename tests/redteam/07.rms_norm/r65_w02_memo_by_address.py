# expect: fail memoizes results by the input's address and shape: a second call on the same (or a re-used) address returns a stale result without launching the kernel
# hint: cach|memo|stale|second call|(no|not|without|never) (a |the )?(kernel )?launch|launch(es|ed)? (once|per call|each)|same (input|address|pointer|storage)|data_ptr|(changed|modified|new) (input|values)
# name: rms_norm
# Wrong: rms_norm must launch its kernel on every call; keyed by data_ptr, a tensor changed in
# place, or a new tensor the allocator puts at a freed address, gets the old result back.
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

_results = {}  # the same input twice: no need to launch again


def rms_norm(x, eps=1e-6):
    """Each row of the 2-D x divided by its root mean square, computed by rms_norm_kernel."""
    key = (x.data_ptr(), tuple(x.shape), tuple(x.stride()), x.dtype, x.device, eps)
    if key in _results:
        return _results[key]
    if x.stride(1) != 1:
        x = x.contiguous()
    n_rows, n_cols = x.shape
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    rms_norm_kernel[(n_rows,)](
        x, out, x.stride(0), out.stride(0), n_cols, eps, BLOCK=triton.next_power_of_2(n_cols)
    )
    _results[key] = out
    return out
