import os
os.environ["TRITON_INTERPRET"] = "1"
import torch
import triton
import triton.language as tl


def make(rows_from_shape=False, other=True, mean_over_block=False, contiguous=False, eps_fixed=None, one_program=False):
    @triton.jit
    def kernel(x_ptr, out_ptr, x_row_stride, out_row_stride, n_cols, eps, BLOCK: tl.constexpr, OTHER: tl.constexpr, BLOCK_MEAN: tl.constexpr):
        row = tl.program_id(0)
        cols = tl.arange(0, BLOCK)
        mask = cols < n_cols
        if OTHER:
            x = tl.load(x_ptr + row * x_row_stride + cols, mask=mask, other=0.0)
        else:
            x = tl.load(x_ptr + row * x_row_stride + cols, mask=mask)
        if BLOCK_MEAN:
            ms = tl.sum(x * x, axis=0) / BLOCK
        else:
            ms = tl.sum(x * x, axis=0) / n_cols
        tl.store(out_ptr + row * out_row_stride + cols, x / tl.sqrt(ms + eps), mask=mask)

    def rms_norm(x, eps=1e-6):
        if contiguous:
            x = x.contiguous()
        out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
        n_rows, n_cols = x.shape
        stride = n_cols if rows_from_shape else x.stride(0)
        grid = (1,) if one_program else (n_rows,)
        kernel[grid](x, out, stride, out.stride(0), n_cols, eps if eps_fixed is None else eps_fixed,
                     BLOCK=triton.next_power_of_2(n_cols), OTHER=other, BLOCK_MEAN=mean_over_block)
        return out

    return rms_norm
