# expect: pass a callable class, the chapter's stride(1) test for the copy, 1/sqrt as a reciprocal multiplied in, num_warps chosen by block size
# hint:
import torch
import triton
import triton.language as tl


@triton.jit
def rms_norm_kernel(x_ptr, out_ptr, x_row_stride, out_row_stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(axis=0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * x_row_stride + cols, mask=mask, other=0.0).to(tl.float32)
    total = tl.sum(x * x, axis=0)  # masked lanes are 0.0: they add nothing
    scale = 1.0 / tl.sqrt(total / n_cols + eps)
    tl.store(out_ptr + row * out_row_stride + cols, x * scale, mask=mask)


class RMSNorm:
    """Callable: RMSNorm of each row of a 2-D tensor, one launch of rms_norm_kernel."""

    def __call__(self, x, eps=1e-6):
        if x.stride(1) != 1:
            x = x.contiguous()  # a row's elements side by side
        n_rows, n_cols = x.shape
        out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
        block = triton.next_power_of_2(n_cols)
        warps = 8 if block >= 2048 else 4  # ignored by the interpreter
        rms_norm_kernel[(n_rows,)](
            x, out, x.stride(0), out.stride(0), n_cols, eps, BLOCK=block, num_warps=warps
        )
        return out


rms_norm = RMSNorm()
answer = rms_norm
