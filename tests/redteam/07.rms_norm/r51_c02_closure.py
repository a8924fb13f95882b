# expect: pass a factory returning a closure over the default eps; copies only when x is not contiguous (is_contiguous, the slice copied too: the one copy allowed); grid as a meta lambda
# hint:
import torch
import triton
import triton.language as tl


@triton.jit
def rms_norm_kernel(x_ptr, out_ptr, x_row_stride, out_row_stride, n_cols, eps, BLOCK: tl.constexpr):
    r = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    live = offs < n_cols
    v = tl.load(x_ptr + r * x_row_stride + offs, mask=live, other=0.0).to(tl.float32)
    ms = tl.sum(v * v, axis=0) / n_cols
    denom = tl.sqrt(ms + eps)
    tl.store(out_ptr + r * out_row_stride + offs, v / denom, mask=live)


def make_rms_norm(default_eps=1e-6):
    def rms_norm(x, eps=default_eps):
        if x.dim() != 2:
            raise ValueError(f"rms_norm takes a 2-D tensor, got shape {tuple(x.shape)}")
        src = x if x.is_contiguous() else x.contiguous()
        rows, cols = src.shape
        out = torch.empty(src.shape, dtype=src.dtype, device=src.device)
        rms_norm_kernel[lambda meta: (rows,)](
            src, out, src.stride(0), out.stride(0), cols, float(eps),
            BLOCK=triton.next_power_of_2(cols),
        )
        return out

    return rms_norm


rms_norm = make_rms_norm()
answer = rms_norm
