# expect: fail avoids overflow by dividing the row by its largest |x| first, but then adds eps to the scaled mean: eps is scaled by max^2 (a few 1e-6 off on ordinary rows, rows of tiny values come out near +-1)
# hint: eps|tiny|small|scal
import torch
import triton
import triton.language as tl


@triton.jit
def rms_norm_kernel(x_ptr, out_ptr, x_row_stride, out_row_stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(axis=0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * x_row_stride + cols, mask=mask, other=0.0).to(tl.float32)
    biggest = tl.max(tl.abs(x), axis=0)
    biggest = tl.where(biggest > 0.0, biggest, 1.0)  # a row of zeros stays zeros
    scaled = x / biggest  # every |value| at most 1: its square cannot overflow
    rms_scaled = tl.sqrt(tl.sum(scaled * scaled, axis=0) / n_cols + eps)
    tl.store(out_ptr + row * out_row_stride + cols, scaled / rms_scaled, mask=mask)


def rms_norm(x, eps=1e-6):
    if x.stride(1) != 1:
        x = x.contiguous()
    n_rows, n_cols = x.shape
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    block = triton.next_power_of_2(n_cols)
    rms_norm_kernel[(n_rows,)](x, out, x.stride(0), out.stride(0), n_cols, eps, BLOCK=block)
    return out


answer = rms_norm
