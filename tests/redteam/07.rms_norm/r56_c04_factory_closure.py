# expect: pass a factory returning a closure; x.contiguous() unconditionally (a no-op for a contiguous x, the one allowed copy otherwise), num_warps chosen by row length
# hint:
import torch
import triton
import triton.language as tl


@triton.jit
def rms_norm_kernel(x_ptr, out_ptr, x_row_stride, out_row_stride, n_cols, eps, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    idx = tl.arange(0, BLOCK)
    in_row = idx < n_cols
    vals = tl.load(x_ptr + pid * x_row_stride + idx, mask=in_row, other=0.0).to(tl.float32)
    sum_sq = tl.sum(vals * vals, axis=0)
    scale = 1.0 / tl.sqrt(sum_sq / n_cols + eps)
    tl.store(out_ptr + pid * out_row_stride + idx, vals * scale, mask=in_row)


def make_rms_norm(kernel, long_row=2048):
    def rms_norm(x, eps=1e-6):
        """Each row of the 2-D x divided by its root mean square, computed by the kernel."""
        x = x.contiguous()  # returns x itself when it already is
        rows, cols = x.shape
        out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
        block = triton.next_power_of_2(cols)
        kernel[(rows,)](
            x, out, x.stride(0), out.stride(0), cols, eps, BLOCK=block,
            num_warps=8 if block >= long_row else 4,
        )
        return out

    return rms_norm


rms_norm = make_rms_norm(rms_norm_kernel)

answer = rms_norm
