# expect: fail for float16 x of large values, rescales x by 1/256 with PyTorch (a max over x, a host sync, and a division: passes more over memory) instead of squaring in float32 inside the kernel
# hint: float32|tl\.float32|\.to\(|overflow|scal|divi|amax|max\b|sync|\.item|extra pass|one pass more|passes? more|pytorch|copy
# name: rms_norm
# Wrong: the prompt asks to square and sum in float32 in the kernel; this keeps float16 arithmetic
# and shrinks large inputs first with PyTorch (exact, as RMS norm ignores the scale): two passes more.
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
    if x.dtype == torch.float16 and x.abs().amax() > 128:
        # x*x overflows float16 past 255; x / rms is the same for x / 256 (a power of two: exact)
        x = x / 256
    if x.stride(1) != 1:
        x = x.contiguous()
    n_rows, n_cols = x.shape
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    rms_norm_kernel[(n_rows,)](
        x, out, x.stride(0), out.stride(0), n_cols, eps, BLOCK=triton.next_power_of_2(n_cols)
    )
    return out
