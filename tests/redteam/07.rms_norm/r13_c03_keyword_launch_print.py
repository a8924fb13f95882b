# expect: fail keyword launch arguments in another order, a reshaped output buffer, a print per call; squares and sums in float16 (no float32 upcast): wrong since round 19's float16 case, which the prompt now names
# hint: float16|float32|overflow
import torch
import triton
import triton.language as tl


@triton.jit
def rms_norm_kernel(x_ptr, out_ptr, x_row_stride, out_row_stride, n_cols, eps, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    c = tl.arange(0, BLOCK)
    valid = c < n_cols
    row_in = x_ptr + pid * x_row_stride
    row_out = out_ptr + pid * out_row_stride
    vals = tl.load(row_in + c, mask=valid, other=0.0)
    sq = vals * vals
    ms = tl.sum(sq, axis=0) / n_cols
    denom = tl.sqrt(ms + eps)
    tl.store(row_out + c, vals / denom, mask=valid)


def rms_norm(x, eps=1e-6):
    """Each row of the 2-D x divided by its root mean square, computed by rms_norm_kernel."""
    src = x if x.stride(1) == 1 else x.contiguous()
    n_rows, n_cols = src.shape
    out = torch.empty(n_rows * n_cols, dtype=src.dtype, device=src.device).view(n_rows, n_cols)
    BLOCK = triton.next_power_of_2(n_cols)
    print(f"rms_norm: {n_rows} rows of {n_cols}, blocks of {BLOCK}, eps={eps}")
    rms_norm_kernel[(n_rows,)](
        BLOCK=BLOCK,
        eps=eps,
        n_cols=n_cols,
        out_row_stride=out.stride(0),
        x_row_stride=src.stride(0),
        out_ptr=out,
        x_ptr=src,
    )
    return out


answer = rms_norm
