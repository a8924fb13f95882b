# expect: fail keeps one output buffer per shape and returns it on every call: a second call overwrites the tensor the first call returned
# hint: alias|same (output|tensor|buffer|storage|object)|reus|overwr|cach|second call|earlier (call|result)|new (output|tensor)|fresh
# name: rms_norm
# Wrong: the output must be made by torch.empty on each call; this one is made once and reused,
# so every value is right at return, but the caller's earlier results change under it.
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

_outputs = {}  # (shape, dtype, device) -> output buffer, so that no call allocates twice


def rms_norm(x, eps=1e-6):
    """Each row of the 2-D x divided by its root mean square, computed by rms_norm_kernel."""
    if x.stride(1) != 1:
        x = x.contiguous()
    n_rows, n_cols = x.shape
    key = (tuple(x.shape), x.dtype, x.device)
    out = _outputs.get(key)
    if out is None:
        out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
        _outputs[key] = out
    rms_norm_kernel[(n_rows,)](
        x, out, x.stride(0), out.stride(0), n_cols, eps, BLOCK=triton.next_power_of_2(n_cols)
    )
    return out
