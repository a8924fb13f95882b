# expect: fail a callable object; sum of squares first into a buffer, then a second kernel scales: two launches read x twice, wrong since round 19 (one kernel per call)
# hint: (2|two) kernels|one kernel|launch
import os
os.environ["TRITON_INTERPRET"] = "1"
import torch
import triton
import triton.language as tl


@triton.jit
def _sumsq(x_ptr, s_ptr, stride_r, stride_c, n_cols, BLOCK: tl.constexpr):
    r = tl.program_id(0)
    c = tl.arange(0, BLOCK)
    v = tl.load(x_ptr + r * stride_r + c * stride_c, mask=c < n_cols, other=0.0)
    tl.store(s_ptr + r, tl.sum(v * v, axis=0))


@triton.jit
def rms_norm_kernel(x_ptr, out_ptr, x_row_stride, out_row_stride, n_cols, eps, s_ptr, stride_c, BLOCK: tl.constexpr):
    r = tl.program_id(0)
    c = tl.arange(0, BLOCK)
    m = c < n_cols
    v = tl.load(x_ptr + r * x_row_stride + c * stride_c, mask=m, other=0.0)
    s = tl.load(s_ptr + r)
    tl.store(out_ptr + r * out_row_stride + c, v / tl.sqrt(s / n_cols + eps), mask=m)


class RMS:
    def __call__(self, x, eps=1e-6):
        out = x.new_empty(x.shape).contiguous() if not x.is_contiguous() else torch.empty_like(x)
        out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
        s = torch.empty(x.shape[0], dtype=torch.float32, device=x.device)
        B = triton.next_power_of_2(x.shape[1])
        _sumsq[(x.shape[0],)](x, s, x.stride(0), x.stride(1), x.shape[1], BLOCK=B)
        rms_norm_kernel[(x.shape[0],)](x, out, x.stride(0), out.stride(0), x.shape[1], eps, s, x.stride(1), BLOCK=B)
        return out


answer = RMS()
