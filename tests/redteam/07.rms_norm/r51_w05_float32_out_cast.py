# expect: fail stores into a float32 buffer and casts it to x's dtype with PyTorch: for float16 inputs one more pass over memory (right values)
# hint: cast|copy|\.to\(|pass|dtype|float32 (buffer|output)|extra
import torch
import triton
import triton.language as tl


@triton.jit
def rms_norm_kernel(x_ptr, out_ptr, x_row_stride, out_row_stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(axis=0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * x_row_stride + cols, mask=mask, other=0.0).to(tl.float32)
    mean_sq = tl.sum(x * x, axis=0) / n_cols
    tl.store(out_ptr + row * out_row_stride + cols, x / tl.sqrt(mean_sq + eps), mask=mask)


def rms_norm(x, eps=1e-6):
    if x.stride(1) != 1:
        x = x.contiguous()
    n_rows, n_cols = x.shape
    # "square and sum in float32": keep the whole result in float32 too, cast at the end
    out = torch.empty(x.shape, dtype=torch.float32, device=x.device)
    block = triton.next_power_of_2(n_cols)
    rms_norm_kernel[(n_rows,)](x, out, x.stride(0), out.stride(0), n_cols, eps, BLOCK=block)
    return out.to(x.dtype)  # a no-op for float32 x, a copy for float16


answer = rms_norm
