# expect: fail casts x to float32 with PyTorch before the kernel, a pass over memory (the prompt: tl.load(...).to(tl.float32) in the kernel)
# hint: (cast|another dtype)
# name: rms_norm
import torch
import triton
import triton.language as tl


@triton.jit
def rms_norm_kernel(x_ptr, out_ptr, x_row_stride, out_row_stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(axis=0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * x_row_stride + cols, mask=mask, other=0.0)
    mean_sq = tl.sum(x * x, axis=0) / n_cols
    tl.store(out_ptr + row * out_row_stride + cols, x / tl.sqrt(mean_sq + eps), mask=mask)


def rms_norm(x, eps=1e-6):
    dtype = x.dtype
    x32 = x.to(torch.float32).contiguous()  # square and sum in float32
    out32 = torch.empty(x32.shape, dtype=torch.float32, device=x32.device)
    n_rows, n_cols = x32.shape
    rms_norm_kernel[(n_rows,)](
        x32, out32, x32.stride(0), out32.stride(0), n_cols, eps, BLOCK=triton.next_power_of_2(n_cols)
    )
    return out32.to(dtype)
