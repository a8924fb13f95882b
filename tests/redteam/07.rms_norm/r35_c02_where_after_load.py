# expect: pass Zeroes the masked lanes with tl.where after the load instead of other=, divides by sqrt of the mean, and always works on a contiguous copy with a contiguous output from empty_like of it.
# hint:
# name: rms_norm
import torch
import triton
import triton.language as tl


@triton.jit
def rms_norm_kernel(x_ptr, out_ptr, x_row_stride, out_row_stride, n_cols, eps, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    inside = offs < n_cols
    raw = tl.load(x_ptr + pid * x_row_stride + offs, mask=inside)
    v = tl.where(inside, raw.to(tl.float32), 0.0)  # whatever the masked lanes held, they add 0
    rms = tl.sqrt(tl.sum(v * v, axis=0) / n_cols + eps)
    tl.store(out_ptr + pid * out_row_stride + offs, v / rms, mask=inside)


def rms_norm(x, eps=1e-6):
    assert x.dim() == 2, f"rms_norm expects a 2-D tensor, got {x.dim()}-D"
    src = x.contiguous()  # no copy when already contiguous
    out = torch.empty_like(src)  # contiguous, since src is
    rows, cols = src.shape
    rms_norm_kernel[(rows,)](
        src, out, src.stride(0), out.stride(0), cols, float(eps), BLOCK=triton.next_power_of_2(cols)
    )
    return out


answer = rms_norm
