# expect: pass tl.rsqrt and a multiplication; always .contiguous(); out via torch.empty_like of the contiguous copy
# hint: 
# name: rms_norm
import torch
import triton
import triton.language as tl


@triton.jit
def rms_norm_kernel(x_ptr, out_ptr, x_row_stride, out_row_stride, n_cols, eps, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    in_row = offs < n_cols
    v = tl.load(x_ptr + pid * x_row_stride + offs, mask=in_row, other=0.0).to(tl.float32)
    inv_rms = tl.rsqrt(tl.sum(v * v, axis=0) / n_cols + eps)
    tl.store(out_ptr + pid * out_row_stride + offs, v * inv_rms, mask=in_row)


def rms_norm(x, eps=1e-6):
    xc = x.contiguous()
    out = torch.empty_like(xc)
    rows, cols = xc.shape
    rms_norm_kernel[(rows,)](
        xc, out, xc.stride(0), out.stride(0), cols, eps, BLOCK=triton.next_power_of_2(cols)
    )
    return out
