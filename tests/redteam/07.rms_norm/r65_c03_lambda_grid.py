# expect: pass
# hint:
# name: rms_norm
# Right: copies x whenever it is not contiguous (a slice too: the one copy the prompt allows),
# launches over a grid given as a function of the meta-parameters, divides by n_cols via 1/n.
import torch
import triton
import triton.language as tl


@triton.jit
def rms_norm_kernel(x_ptr, out_ptr, x_row_stride, out_row_stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offsets = tl.arange(0, BLOCK)
    in_row = offsets < n_cols
    x = tl.load(x_ptr + row * x_row_stride + offsets, mask=in_row, other=0.0).to(tl.float32)
    squares = tl.sum(x * x, axis=0)
    rms = tl.sqrt(squares * (1.0 / n_cols) + eps)
    tl.store(out_ptr + row * out_row_stride + offsets, x / rms, mask=in_row)


def rms_norm(x, eps=1e-6):
    """Each row of the 2-D x divided by its root mean square, computed by rms_norm_kernel."""
    if not x.is_contiguous():
        x = x.contiguous()
    n_rows, n_cols = x.shape
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    grid = lambda meta: (n_rows,)  # noqa: E731  one program per row, whatever BLOCK is
    rms_norm_kernel[grid](
        x_ptr=x, out_ptr=out, x_row_stride=x.stride(0), out_row_stride=out.stride(0),
        n_cols=n_cols, eps=eps, BLOCK=triton.next_power_of_2(n_cols),
    )
    return out
