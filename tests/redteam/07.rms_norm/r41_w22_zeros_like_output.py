# expect: fail makes the output with torch.zeros_like, a fill before the kernel writes every element (the prompt: made with torch.empty)
# hint: (filled|torch\.empty)
# name: rms_norm
import torch
import triton
import triton.language as tl


@triton.jit
def rms_norm_kernel(x_ptr, out_ptr, x_row_stride, out_row_stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(axis=0).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.cast(tl.load(x_ptr + row * x_row_stride + cols, mask=mask, other=0.0), tl.float32)
    sq = x * x
    total = tl.sum(sq, axis=0)
    inv_n = 1.0 / n_cols
    y = x / tl.sqrt(total * inv_n + eps)
    tl.store(out_ptr + row * out_row_stride + cols, y, mask=mask)


def rms_norm(x, eps=1e-6):
    if not x.is_contiguous():
        x = x.clone(memory_format=torch.contiguous_format)
    out = torch.zeros_like(x)
    rms_norm_kernel[(x.shape[0],)](
        x, out, x.stride(0), out.stride(0), x.shape[1], float(eps), BLOCK=triton.next_power_of_2(x.shape[1])
    )
    return out
