# expect: pass a closure made by a factory; grid given as a lambda of the meta-parameters; pointer blocks built first
# hint:
import os

os.environ["TRITON_INTERPRET"] = "1"  # as the exercise's set-up cell does, before importing triton

import torch
import triton
import triton.language as tl


@triton.jit
def rms_norm_kernel(x_ptr, out_ptr, x_row_stride, out_row_stride, n_cols, eps, x_col_stride, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    lanes = tl.arange(0, BLOCK)
    in_row = lanes < n_cols
    src = x_ptr + pid * x_row_stride + lanes * x_col_stride
    dst = out_ptr + pid * out_row_stride + lanes
    vals = tl.load(src, mask=in_row, other=0.0).to(tl.float32)
    squares = vals * vals
    rms = tl.sqrt(tl.sum(squares, axis=0) / n_cols + eps)
    tl.store(dst, vals / rms, mask=in_row)


def make_rms_norm(kernel):
    def rms_norm(x, eps=1e-6):
        """Each row of the 2-D x divided by its root mean square, computed by the kernel."""
        assert x.ndim == 2, x.shape
        n_rows, n_cols = x.shape
        out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
        x_row_stride, x_col_stride = x.stride()
        kernel[lambda meta: (n_rows,)](
            x, out, x_row_stride, out.stride(0), n_cols, eps, x_col_stride,
            BLOCK=triton.next_power_of_2(n_cols),
        )
        return out

    return rms_norm


rms_norm = make_rms_norm(rms_norm_kernel)
answer = rms_norm
