# expect: pass built by a factory that closes over the kernel; grid given as a function of the meta-parameters, 64-bit row offsets, rsqrt
# hint:
# name: rms_norm
import os

os.environ.setdefault("TRITON_INTERPRET", "1")  # before importing triton, as the notebook does

import torch
import triton
import triton.language as tl


@triton.jit
def rms_norm_kernel(x_ptr, out_ptr, x_row_stride, out_row_stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(axis=0).to(tl.int64)  # row * stride cannot overflow 32 bits
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x_row = x_ptr + row * x_row_stride
    out_row = out_ptr + row * out_row_stride
    v = tl.load(x_row + cols, mask=mask, other=0.0).to(tl.float32)
    scale = tl.rsqrt(tl.sum(v * v, axis=0) / n_cols + eps)
    tl.store(out_row + cols, v * scale, mask=mask)


def make_rms_norm(kernel, default_eps=1e-6):
    def rms_norm(x, eps=default_eps):
        """Each row of the 2-D x divided by its root mean square, computed by the kernel."""
        n_rows, n_cols = x.shape
        src = x if x.stride(1) == 1 else x.contiguous()  # rows apart is fine; columns must touch
        out = torch.empty(x.shape, dtype=x.dtype, device=x.device)

        def grid(meta):
            return (n_rows,)  # one program per row, whatever BLOCK is

        kernel[grid](src, out, src.stride(0), out.stride(0), n_cols, eps, BLOCK=triton.next_power_of_2(n_cols))
        return out

    return rms_norm


rms_norm = make_rms_norm(rms_norm_kernel)
