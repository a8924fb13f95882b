# expect: pass masked load without other=, then tl.where zeroes the masked lanes before squaring; keyword launch, grid as a lambda
# hint: 
# name: rms_norm
import torch
import triton
import triton.language as tl


@triton.jit
def rms_norm_kernel(x_ptr, out_ptr, x_row_stride, out_row_stride, n_cols, eps, BLOCK: tl.constexpr):
    r = tl.program_id(axis=0)
    c = tl.arange(0, BLOCK)
    m = c < n_cols
    raw = tl.load(x_ptr + r * x_row_stride + c, mask=m)
    v = tl.where(m, raw.to(tl.float32), 0.0)
    ss = tl.sum(v * v, axis=0)
    denom = tl.sqrt(ss / n_cols + eps)
    tl.store(out_ptr + r * out_row_stride + c, v / denom, mask=m)


def rms_norm(x, eps=1e-6):
    assert x.dim() == 2, "rms_norm expects a 2-D tensor"
    if x.stride(-1) != 1:
        x = x.contiguous()
    out = torch.empty((x.shape[0], x.shape[1]), dtype=x.dtype, device=x.device)
    rms_norm_kernel[lambda meta: (x.shape[0],)](
        x_ptr=x,
        out_ptr=out,
        x_row_stride=x.stride(0),
        out_row_stride=out.stride(0),
        n_cols=x.shape[1],
        eps=float(eps),
        BLOCK=triton.next_power_of_2(x.shape[1]),
    )
    return out
