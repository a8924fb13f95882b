# expect: fail for a float16 x, casts it to float32 with PyTorch and the float32 output back to float16: two passes more over memory (right values)
# hint: cast|conver|\.float\(|\.half\(|\.to\(|float32|extra (pass|copy)|one pass more|passes? more|copy
# name: rms_norm
# Wrong: the prompt asks for the float32 arithmetic inside the kernel (tl.load(...).to(tl.float32))
# and names a cast made with PyTorch as one pass more; float32 inputs take the right path.
import torch
import triton
import triton.language as tl


@triton.jit
def rms_norm_kernel(x_ptr, out_ptr, x_row_stride, out_row_stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(axis=0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * x_row_stride + cols, mask=mask, other=0.0)
    mean_square = tl.sum(x * x, axis=0) / n_cols
    tl.store(out_ptr + row * out_row_stride + cols, x / tl.sqrt(mean_square + eps), mask=mask)


def rms_norm(x, eps=1e-6):
    """Each row of the 2-D x divided by its root mean square, computed by rms_norm_kernel."""
    dtype = x.dtype
    if dtype != torch.float32:
        x = x.float()  # float16 squares of values in the hundreds overflow: work in float32
    if x.stride(1) != 1:
        x = x.contiguous()
    n_rows, n_cols = x.shape
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    rms_norm_kernel[(n_rows,)](
        x, out, x.stride(0), out.stride(0), n_cols, eps, BLOCK=triton.next_power_of_2(n_cols)
    )
    return out if dtype == torch.float32 else out.to(dtype)
