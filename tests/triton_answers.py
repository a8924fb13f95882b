"""Answers to the Triton exercises, right and wrong, graded in a fresh process.

    TRITON_INTERPRET=1 python tests/triton_answers.py   # prints one JSON object
    TRITON_INTERPRET=1 python tests/triton_answers.py --chapter DIR   # chapter 7's kernels
    TRITON_INTERPRET=1 python tests/triton_answers.py --gpu-cells     # its GPU cells, on a CPU

With ``--chapter``, the kernels of chapter 7 itself (``add``, ``softmax`` and
``online_softmax``, read from the notebook's cells) are checked against PyTorch
under the exercise checker's watch, as they are and with slips made on purpose;
each module is written to ``DIR``, since ``@triton.jit`` needs a kernel's source
file. With ``--gpu-cells``, the chapter runs top to bottom on the CPU, its GPU
cells too, with a stand-in device name, small sizes and stand-in timers: what
the run reports is whether each GPU cell's code runs, not what it measures.

As in the exercise notebook, the interpreter is switched on before triton is
imported (triton decides, when it defines its own functions such as ``tl.sum``,
whether they are compiled or interpreted). ``tests/test_checks_ch07.py`` runs
this file in its own process, so that the test process's triton, and the GPU
runs of the other tests, are left as they are.

Each wrong answer is one a learner is likely to write. Not a test file: pytest
does not collect it.
"""

import functools
import json
import os
import sys

os.environ["TRITON_INTERPRET"] = "1"  # before triton is imported

import numpy as np  # noqa: E402
import torch  # noqa: E402
import triton  # noqa: E402
import triton.language as tl  # noqa: E402
from triton.runtime.jit import JITFunction  # noqa: E402

from d2lgpu.grading import check  # noqa: E402

# ---------------------------------------------------------------------------------------------
# 07.relu_mul


@triton.jit
def relu_mul_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, tl.maximum(x, 0.0) * y, mask=mask)


def relu_mul(x, y):
    x, y = x.contiguous(), y.contiguous()
    out = torch.empty_like(x)
    n = x.numel()
    relu_mul_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
    return out


@triton.jit
def relu_mul_where_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK
    offsets = block_start + tl.arange(0, BLOCK)
    in_range = offsets < n
    x = tl.load(x_ptr + offsets, mask=in_range, other=0.0)
    y = tl.load(y_ptr + offsets, mask=in_range, other=0.0)
    tl.store(out_ptr + offsets, tl.where(x > 0, x * y, 0.0), mask=in_range)


def relu_mul_small_blocks(x, y):
    # Written differently: a small block, a lambda grid, reshape at the end.
    flat_x, flat_y = x.reshape(-1).contiguous(), y.reshape(-1).contiguous()
    out = torch.empty(flat_x.numel(), dtype=x.dtype, device=x.device)

    def grid(meta):
        return (triton.cdiv(flat_x.numel(), meta["BLOCK"]),)

    relu_mul_where_kernel[grid](flat_x, flat_y, out, flat_x.numel(), BLOCK=128)
    return out.reshape(x.shape)


def relu_mul_block_grows(x, y):
    # "not one program for the whole tensor": always 4 programs, the block sized to fit
    x, y = x.contiguous(), y.contiguous()
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = x.numel()
    block = max(16, triton.next_power_of_2(triton.cdiv(n, 4)))
    relu_mul_kernel[(triton.cdiv(n, block),)](x, y, out, n, BLOCK=block)
    return out


# As if TRITON_INTERPRET had been unset when the kernel was defined: compiled for a GPU.
COMPILED_KERNEL = JITFunction(relu_mul_kernel.fn)


def relu_mul_compiled(x, y):
    x, y = x.contiguous(), y.contiguous()
    out = torch.empty_like(x)
    COMPILED_KERNEL[(triton.cdiv(x.numel(), 256),)](x, y, out, x.numel(), BLOCK=256)
    return out


@triton.jit
def relu_mul_no_mask_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offsets)
    y = tl.load(y_ptr + offsets)
    tl.store(out_ptr + offsets, tl.maximum(x, 0.0) * y)


def relu_mul_no_mask(x, y):
    x, y = x.contiguous(), y.contiguous()
    out = torch.empty_like(x)
    relu_mul_no_mask_kernel[(triton.cdiv(x.numel(), 1024),)](x, y, out, x.numel(), BLOCK=1024)
    return out


@triton.jit
def relu_mul_store_unmasked_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
    y = tl.load(y_ptr + offsets, mask=mask, other=0.0)
    tl.store(out_ptr + offsets, tl.maximum(x, 0.0) * y)  # the store forgot its mask


def relu_mul_store_unmasked(x, y):
    x, y = x.contiguous(), y.contiguous()
    out = torch.empty_like(x)
    relu_mul_store_unmasked_kernel[(triton.cdiv(x.numel(), 64),)](x, y, out, x.numel(), BLOCK=64)
    return out


@triton.jit
def relu_mul_pid_offsets_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) + tl.arange(0, BLOCK)  # forgot * BLOCK
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, tl.maximum(x, 0.0) * y, mask=mask)


def relu_mul_pid_offsets(x, y):
    x, y = x.contiguous(), y.contiguous()
    out = torch.empty_like(x)
    n = x.numel()
    relu_mul_pid_offsets_kernel[(triton.cdiv(n, 256),)](x, y, out, n, BLOCK=256)
    return out


def relu_mul_floor_grid(x, y):
    x, y = x.contiguous(), y.contiguous()
    out = torch.empty_like(x)
    n = x.numel()
    relu_mul_kernel[(max(1, n // 256),)](x, y, out, n, BLOCK=256)  # one program short
    return out


@triton.jit
def relu_mul_in_place_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(x_ptr + offsets, tl.maximum(x, 0.0) * y, mask=mask)


def relu_mul_into_x(x, y):
    relu_mul_in_place_kernel[(triton.cdiv(x.numel(), 1024),)](x, y, x.numel(), BLOCK=1024)
    return x


def relu_mul_relu_in_place(x, y):
    torch.relu_(x)  # changes the caller's tensor
    return relu_mul(x, y)


def relu_mul_ignores_strides(x, y):
    # contiguous, but the inputs may not be
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    relu_mul_kernel[(triton.cdiv(x.numel(), 512),)](x, y, out, x.numel(), BLOCK=512)
    return out


def relu_mul_out_like_strided_x(x, y):
    out = torch.empty_like(x)  # before .contiguous(): a transposed x gives a transposed out
    x, y = x.contiguous(), y.contiguous()
    relu_mul_kernel[(triton.cdiv(x.numel(), 512),)](x, y, out, x.numel(), BLOCK=512)
    return out


@triton.jit
def relu_of_product_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, tl.maximum(x * y, 0.0), mask=mask)  # relu(x * y)


def relu_of_product(x, y):
    x, y = x.contiguous(), y.contiguous()
    out = torch.empty_like(x)
    relu_of_product_kernel[(triton.cdiv(x.numel(), 1024),)](x, y, out, x.numel(), BLOCK=1024)
    return out


@triton.jit
def relu_mul_x_loaded_twice_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    positive = tl.load(x_ptr + offsets, mask=mask) > 0  # x read once for the test...
    x = tl.load(x_ptr + offsets, mask=mask)  # ...and again for the value
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, tl.where(positive, x * y, 0.0), mask=mask)


def relu_mul_x_loaded_twice(x, y):
    x, y = x.contiguous(), y.contiguous()
    out = torch.empty_like(x)
    relu_mul_x_loaded_twice_kernel[(triton.cdiv(x.numel(), 1024),)](
        x, y, out, x.numel(), BLOCK=1024
    )
    return out


def relu_mul_y_cast_in_torch(x, y):
    return relu_mul(x, y.to(x.dtype))  # a copy where the dtypes differ: an extra pass


def relu_mul_in_torch(x, y):
    return torch.relu(x) * y


# ---------------------------------------------------------------------------------------------
# 07.rms_norm


@triton.jit
def rms_norm_kernel(x_ptr, out_ptr, stride_x, stride_out, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride_x + cols, mask=mask, other=0.0).to(tl.float32)
    mean_square = tl.sum(x * x, axis=0) / n_cols
    tl.store(out_ptr + row * stride_out + cols, x / tl.sqrt(mean_square + eps), mask=mask)


def rms_norm(x, eps=1e-6):
    if x.stride(1) != 1:
        x = x.contiguous()
    out = torch.empty_like(x)
    n_rows, n_cols = x.shape
    block = triton.next_power_of_2(n_cols)
    rms_norm_kernel[(n_rows,)](x, out, x.stride(0), out.stride(0), n_cols, eps, BLOCK=block)
    return out


def relu_mul_out_on_the_default_device(x, y):
    x, y = x.contiguous(), y.contiguous()
    out = torch.empty(x.shape, dtype=x.dtype)  # no device=: the CPU's, whatever x's device
    relu_mul_kernel[(triton.cdiv(x.numel(), 1024),)](x, y, out, x.numel(), BLOCK=1024)
    return out


def rms_norm_scratch_on_the_default_device(x, eps=1e-6):
    torch.empty(4)  # a tensor of its own the kernel never gets: where it lives matters not
    return rms_norm(x, eps)


@triton.jit
def rms_norm_rsqrt_kernel(x_ptr, out_ptr, n_cols, eps, BLOCK: tl.constexpr):
    x_row = x_ptr + tl.program_id(0) * n_cols
    offsets = tl.arange(0, BLOCK)
    keep = offsets < n_cols
    values = tl.load(x_row + offsets, mask=keep, other=0.0).to(tl.float32)
    inverse = tl.rsqrt(tl.sum(values * values, axis=0) / n_cols + eps)
    tl.store(out_ptr + tl.program_id(0) * n_cols + offsets, values * inverse, mask=keep)


def rms_norm_contiguous(x, eps=1e-6):
    # Written differently: always a contiguous copy, rsqrt, no stride arguments.
    x = x.contiguous()
    out = torch.empty_like(x)
    block = triton.next_power_of_2(x.shape[1])
    rms_norm_rsqrt_kernel[(x.shape[0],)](x, out, x.shape[1], eps, BLOCK=block)
    return out


@triton.jit
def rms_norm_no_mask_kernel(x_ptr, out_ptr, stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * stride + cols)
    mean_square = tl.sum(x * x, axis=0) / n_cols
    tl.store(out_ptr + row * stride + cols, x / tl.sqrt(mean_square + eps))


def rms_norm_no_mask(x, eps):
    x = x.contiguous()
    out = torch.empty_like(x)
    block = triton.next_power_of_2(x.shape[1])
    rms_norm_no_mask_kernel[(x.shape[0],)](x, out, x.stride(0), x.shape[1], eps, BLOCK=block)
    return out


@triton.jit
def rms_norm_no_other_kernel(x_ptr, out_ptr, stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask)  # masked lanes undefined
    mean_square = tl.sum(x * x, axis=0) / n_cols
    tl.store(out_ptr + row * stride + cols, x / tl.sqrt(mean_square + eps), mask=mask)


def rms_norm_no_other(x, eps):
    x = x.contiguous()
    out = torch.empty_like(x)
    block = triton.next_power_of_2(x.shape[1])
    rms_norm_no_other_kernel[(x.shape[0],)](x, out, x.stride(0), x.shape[1], eps, BLOCK=block)
    return out


@triton.jit
def rms_norm_mean_over_block_kernel(x_ptr, out_ptr, stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0)
    mean_square = tl.sum(x * x, axis=0) / BLOCK  # the wrong count
    tl.store(out_ptr + row * stride + cols, x / tl.sqrt(mean_square + eps), mask=mask)


def rms_norm_mean_over_block(x, eps):
    x = x.contiguous()
    out = torch.empty_like(x)
    block = triton.next_power_of_2(x.shape[1])
    kernel = rms_norm_mean_over_block_kernel
    kernel[(x.shape[0],)](x, out, x.stride(0), x.shape[1], eps, BLOCK=block)
    return out


@triton.jit
def rms_norm_eps_outside_kernel(x_ptr, out_ptr, stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride + cols, mask=mask, other=0.0)
    rms = tl.sqrt(tl.sum(x * x, axis=0) / n_cols) + eps  # eps outside the root
    tl.store(out_ptr + row * stride + cols, x / rms, mask=mask)


def rms_norm_eps_outside(x, eps):
    x = x.contiguous()
    out = torch.empty_like(x)
    block = triton.next_power_of_2(x.shape[1])
    kernel = rms_norm_eps_outside_kernel
    kernel[(x.shape[0],)](x, out, x.stride(0), x.shape[1], eps, BLOCK=block)
    return out


def rms_norm_fixed_eps(x, eps):
    return rms_norm(x, 1e-6)  # the eps argument ignored


def rms_norm_one_row_short(x, eps):
    x = x.contiguous()
    out = torch.empty_like(x)
    block = triton.next_power_of_2(x.shape[1])
    grid = (max(1, x.shape[0] - 1),)  # off by one
    rms_norm_kernel[grid](x, out, x.stride(0), out.stride(0), x.shape[1], eps, BLOCK=block)
    return out


def rms_norm_fixed_block(x, eps):
    x = x.contiguous()
    out = torch.empty_like(x)
    rms_norm_kernel[(x.shape[0],)](x, out, x.stride(0), out.stride(0), x.shape[1], eps, BLOCK=512)
    return out


def rms_norm_row_stride_from_shape(x, eps):
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)  # contiguous; x may not be
    n_rows, n_cols = x.shape
    block = triton.next_power_of_2(n_cols)
    rms_norm_kernel[(n_rows,)](x, out, n_cols, n_cols, n_cols, eps, BLOCK=block)
    return out


def rms_norm_out_like_strided_x(x, eps):
    out = torch.empty_like(x)  # before .contiguous(): a transposed x gives a transposed out
    x = x.contiguous()
    block = triton.next_power_of_2(x.shape[1])
    rms_norm_kernel[(x.shape[0],)](x, out, x.stride(0), out.stride(0), x.shape[1], eps, BLOCK=block)
    return out


def rms_norm_into_x(x, eps):
    x = x.contiguous()
    block = triton.next_power_of_2(x.shape[1])
    rms_norm_kernel[(x.shape[0],)](x, x, x.stride(0), x.stride(0), x.shape[1], eps, BLOCK=block)
    return x


def _relu_mul_launch(x, y, *, block):
    """A helper behind a functools.partial: an output made with torch.empty (not empty_like),
    the inputs made contiguous in place of the names, a print of the launch."""
    x, y = x.contiguous(), y.contiguous()
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    grid = (triton.cdiv(x.numel(), block),)
    relu_mul_kernel[grid](x, y, out, x.numel(), BLOCK=block)
    print(f"relu_mul: {grid[0]} programs of {block}")
    return out


relu_mul_partial = functools.partial(_relu_mul_launch, block=128)


class _RmsNorm:
    """A callable object: rows from a numpy round-trip of the shape, the output made with
    new_empty, the kernel launched with keyword arguments."""

    def __call__(self, x, eps=1e-6):
        x = x.contiguous()
        n_rows, n_cols = (int(v) for v in np.array(x.shape))
        out = x.new_empty((n_rows, n_cols))
        rms_norm_kernel[(n_rows,)](
            x,
            out,
            stride_x=x.stride(0),
            stride_out=out.stride(0),
            n_cols=n_cols,
            eps=eps,
            BLOCK=triton.next_power_of_2(n_cols),
        )
        return out


rms_norm_callable = _RmsNorm()


def rms_norm_centers_x_first(x, eps):
    # LayerNorm's habit: x centred in place before the kernel
    x.sub_(x.mean(dim=1, keepdim=True))
    return rms_norm(x, eps)


def rms_norm_flat_output(x, eps):
    return rms_norm(x, eps).reshape(-1)  # flattened for the kernel, never shaped back


def relu_mul_flat_output(x, y):
    return relu_mul(x.reshape(-1), y.reshape(-1))  # right for vectors; a matrix comes back flat


_KEPT: dict = {}


def relu_mul_kept_output(x, y):
    """One output per shape, kept between calls: the next call writes over the last result."""
    x, y = x.contiguous(), y.contiguous()
    out = _KEPT.setdefault((x.shape, x.dtype), torch.empty(x.shape, dtype=x.dtype, device=x.device))
    n = x.numel()
    relu_mul_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
    return out


@triton.jit
def relu_mul_positive_only_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x * y, mask=mask & (x > 0))  # the zeros never stored


def relu_mul_positive_only(x, y):
    x, y = x.contiguous(), y.contiguous()
    out = torch.empty_like(x)
    n = x.numel()
    relu_mul_positive_only_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
    return out


@triton.jit
def rms_norm_other_inf_kernel(x_ptr, out_ptr, n_cols, eps, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + tl.program_id(0) * n_cols + cols, mask=mask, other=float("-inf"))
    x = x.to(tl.float32)  # softmax's other=, whose squares are inf
    mean_square = tl.sum(x * x, axis=0) / n_cols
    tl.store(out_ptr + tl.program_id(0) * n_cols + cols, x / tl.sqrt(mean_square + eps), mask=mask)


def rms_norm_other_inf(x, eps=1e-6):
    x = x.contiguous()
    out = torch.empty_like(x)
    block = triton.next_power_of_2(x.shape[1])
    rms_norm_other_inf_kernel[(x.shape[0],)](x, out, x.shape[1], eps, BLOCK=block)
    return out


def rms_norm_grid_over_columns(x, eps=1e-6):
    x = x.contiguous()
    out = torch.empty_like(x)
    n_rows, n_cols = x.shape
    block = triton.next_power_of_2(n_cols)
    rms_norm_kernel[(n_cols,)](x, out, x.stride(0), out.stride(0), n_cols, eps, BLOCK=block)
    return out


def rms_norm_no_eps(x, eps=1e-6):
    return rms_norm(x, 0.0)  # eps never reaches the kernel


def rms_norm_kept_output(x, eps=1e-6):
    """One output per shape, kept between calls, as relu_mul_kept_output."""
    x = x.contiguous()
    out = _KEPT.setdefault(
        (x.shape, x.dtype, "rms"), torch.empty(x.shape, dtype=x.dtype, device=x.device)
    )
    rms_norm_kernel[(x.shape[0],)](
        x,
        out,
        x.stride(0),
        out.stride(0),
        x.shape[1],
        eps,
        BLOCK=triton.next_power_of_2(x.shape[1]),
    )
    return out


_RESULTS: dict = {}


def relu_mul_kept_by_address(x, y):
    """Each result kept, looked up by the inputs' addresses and shapes: the same tensors with
    new values get the old result, and no launch."""
    key = (x.data_ptr(), y.data_ptr(), x.shape, x.dtype)
    if key not in _RESULTS:
        _RESULTS[key] = relu_mul(x, y)
    return _RESULTS[key]


def rms_norm_kept_by_address(x, eps=1e-6):
    """As relu_mul_kept_by_address: the kernel never runs again for the same tensor."""
    key = (x.data_ptr(), x.shape, x.stride(), x.dtype, eps, "rms")
    if key not in _RESULTS:
        _RESULTS[key] = rms_norm(x, eps)
    return _RESULTS[key]


def rms_norm_block_1024(x, eps):
    """A block fixed at the chapter's largest row, 1024: longer rows are cut."""
    x = x.contiguous()
    out = torch.empty_like(x)
    rms_norm_kernel[(x.shape[0],)](x, out, x.stride(0), out.stride(0), x.shape[1], eps, BLOCK=1024)
    return out


def rms_norm_in_torch(x, eps):
    return x / torch.sqrt((x * x).mean(dim=1, keepdim=True) + eps)


def stub(*args):
    raise NotImplementedError("your code here")


def watch_is_removed_after_a_failed_check() -> bool:
    import triton.runtime.interpreter as interp

    real, load = interp._interpreter, interp.InterpreterBuilder.create_masked_load
    init, run = interp.GridExecutor._init_args_hst, interp.GridExecutor.__call__
    grid = interp.InterpreterBuilder.set_grid_dim
    failed = check("07.relu_mul", relu_mul_no_mask, quiet=True).status == "failed"
    return failed and (
        interp._interpreter is real
        and interp.InterpreterBuilder.create_masked_load is load
        and interp.GridExecutor._init_args_hst is init
        and interp.GridExecutor.__call__ is run
        and interp.InterpreterBuilder.set_grid_dim is grid
    )


# ---------------------------------------------------------------------------------------------
# Chapter 7's own kernels

CHAPTER = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "notebooks", "07_triton.ipynb"
)
# The cells that define add, softmax and online_softmax, by id.
CHAPTER_CELLS = {"add": "7c888e6c", "softmax": "3238e47f", "online_softmax": "d5a2e6f7"}
# Slips in the chapter's kernels: name -> (kernel, the text as written, the slip).
CHAPTER_SLIPS = {
    "add: no mask on the load": (
        "add",
        "x = tl.load(x_ptr + offsets, mask=mask)",
        "x = tl.load(x_ptr + offsets)",
    ),
    "add: no mask on the store": ("add", "x + y, mask=mask)", "x + y)"),
    "add: floor grid": ("add", "triton.cdiv(n, block)", "max(1, n // block)"),
    "softmax: masked lanes without other=": ("softmax", ', other=-float("inf"))', ")"),
    "softmax: masked lanes as 0": ("softmax", 'other=-float("inf")', "other=0.0"),
    "softmax: rows n_cols apart": ("softmax", "row * x_row_stride", "row * n_cols"),
    "online: no rescale of the running sum": ("online_softmax", "d * tl.exp(m - m_new) +", "d +"),
    "online: masked lanes without other=": ("online_softmax", ', other=-float("inf"))', ")"),
    "online: masked lanes as 0": ("online_softmax", 'other=-float("inf")', "other=0.0"),
    "online: the store unmasked": (
        "online_softmax",
        "tl.exp(x - m) / d, mask=mask)",
        "tl.exp(x - m) / d)",
    ),
    "online: the last chunk dropped": (
        "online_softmax",
        "d = 0.0\n    for start in range(0, n_cols, BLOCK):",
        "d = 0.0\n    for start in range(0, n_cols - BLOCK + 1, BLOCK):",
    ),
    "online: the max of the last chunk only": (
        "online_softmax",
        "m_new = tl.maximum(m, tl.max(x, axis=0))",
        "m_new = tl.max(x, axis=0)",
    ),
}


def chapter_sources() -> dict:
    """kernel name -> the source of its cell in chapter 7."""
    with open(CHAPTER) as f:
        cells = {c.get("id"): "".join(c["source"]) for c in json.load(f)["cells"]}
    return {name: cells[cell_id] for name, cell_id in CHAPTER_CELLS.items()}


def chapter_cases(name: str):
    """(what, run) pairs: run(fn) raises when fn disagrees with PyTorch. Odd sizes throughout."""
    gen = torch.Generator().manual_seed(7)

    def randn(*shape):
        return torch.randn(*shape, generator=gen)

    if name == "add":
        for n in (1, 1000, 4097, 5000):
            for block in (128, 1024):
                x, y = randn(n), randn(n)
                yield (
                    f"n = {n}, block {block}",
                    lambda f, x=x, y=y, b=block: (f(x, y, block=b), x + y),
                )
        return
    blocks = (None,) if name == "softmax" else (16, 128, 1024)
    wide = randn(8, 1000)
    inputs = [
        (f"{r} x {c}", randn(r, c)) for r, c in ((1, 1), (5, 1), (3, 129), (16, 781), (2, 4097))
    ]
    inputs += [("a slice 8 x 333 of 8 x 1000", wide[:, 100:433]), ("a transpose", wide[:, :40].t())]
    inputs += [("rows whose max grows in every chunk", 10 * torch.arange(300.0).repeat(3, 1))]
    inputs += [("large values", 1000 * randn(4, 300))]
    for what, x in inputs:
        for block in blocks:
            kwargs = {} if block is None else {"block": block}
            label = what if block is None else f"{what}, block {block}"
            yield label, lambda f, x=x, k=kwargs: (f(x, **k), torch.softmax(x, dim=1))


def chapter_kernels(folder: str) -> dict:
    """Each of chapter 7's kernels, and each slip, checked under the watch: name -> the first
    failure ("" when every case agrees with PyTorch and stays in bounds)."""
    import importlib.util

    from d2lgpu.checks._ch07_interpreter import OutOfBounds, watched_interpreter

    sources = chapter_sources()
    header = "import torch\nimport triton\nimport triton.language as tl\n\n"
    variants = {name: (name, source) for name, source in sources.items()}
    for slip, (name, written, slipped) in CHAPTER_SLIPS.items():
        if sources[name].count(written) != 1:
            raise SystemExit(f"{slip}: {written!r} is not once in the chapter's {name} cell")
        variants[slip] = (name, sources[name].replace(written, slipped))
    results = {}
    for index, (variant, (name, source)) in enumerate(variants.items()):
        path = os.path.join(folder, f"chapter_kernel_{index}.py")
        with open(path, "w") as f:
            f.write(header + source + "\n")
        spec = importlib.util.spec_from_file_location(f"chapter_kernel_{index}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        failure = ""
        with watched_interpreter():
            for what, run in chapter_cases(name):
                try:
                    got, expected = run(getattr(module, name))
                    torch.testing.assert_close(got, expected)
                except OutOfBounds as error:
                    failure = f"{what}: {error}"
                except AssertionError as error:
                    failure = f"{what}: {str(error).splitlines()[0]}"
                if failure:
                    break
        results[variant] = failure
    return results


def chapter_gpu_cells() -> dict:
    """Chapter 7 run on the CPU, its GPU cells included: GPU cell id -> "" when it ran to its
    end, "AssertionError: ..." when a timing claim failed (the interpreter is slow), or the
    error that stopped it; and "do_bench calls" -> how often the cells called do_bench."""
    import signal
    import time

    import triton.testing

    import d2lgpu
    from d2lgpu.checks._ch07_interpreter import scalars_as_indices

    with open(CHAPTER) as f:
        cells = [c for c in json.load(f)["cells"] if c["cell_type"] == "code"]
    calls = []

    def do_bench(fn, return_mode="mean", **kwargs):  # one call, timed on the CPU, in ms
        calls.append(return_mode)
        start = time.perf_counter()
        fn()
        return (time.perf_counter() - start) * 1e3

    def benchmark(fn, *args, repeat=5, **kwargs):
        return real_benchmark(fn, *args, **dict(kwargs, repeat=1))

    real_benchmark = d2lgpu.benchmark
    d2lgpu.benchmark, triton.testing.do_bench = benchmark, do_bench
    torch.cuda.get_device_name = lambda *args: "NVIDIA H100 80GB HBM3"

    def too_slow(*args):
        raise TimeoutError(
            "a GPU cell ran 90 s on the CPU: it sets sizes of its own, which this run cannot "
            "make small (it sets time_n, time_rows and time_cols before each GPU cell)"
        )

    signal.signal(signal.SIGALRM, too_slow)
    namespace, results = {"__name__": "chapter"}, {}
    # The GPU cells' kernels run interpreted here, outside the watch the CPU cells use: with
    # triton 3.6 a loop bound such as range(0, n_cols, BLOCK) needs scalars_as_indices.
    with scalars_as_indices():
        for cell in cells:
            source = "".join(cell["source"])
            gpu = source.startswith("%%requires_gpu")
            lines = [line for line in source.splitlines() if not line.startswith("%")]
            if gpu:  # small sizes: the kernels run interpreted
                namespace.update(time_n=4099, time_rows=16, time_cols=1000)
            signal.alarm(90 if gpu else 0)
            try:
                exec(compile("\n".join(lines), cell["id"], "exec"), namespace)
            except AssertionError as error:
                if not gpu:
                    raise
                results[cell["id"]] = f"AssertionError: {error}"
            except Exception as error:  # noqa: BLE001 (reported, for the test to name)
                if not gpu:
                    raise
                results[cell["id"]] = f"{type(error).__name__}: {error}"
            else:
                if gpu:
                    results[cell["id"]] = ""
            finally:
                signal.alarm(0)
    results["do_bench calls"] = calls
    return results


@triton.jit
def relu_mul_through_out_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(out_ptr + offsets, tl.maximum(tl.load(x_ptr + offsets, mask=mask), 0.0), mask=mask)
    relu = tl.load(out_ptr + offsets, mask=mask)  # the intermediate read back from memory
    tl.store(out_ptr + offsets, relu * tl.load(y_ptr + offsets, mask=mask), mask=mask)


def relu_mul_through_out(x, y):
    """relu(x) stored into the output, read back, multiplied: right values, 5 n floats moved."""
    x, y = x.contiguous(), y.contiguous()
    out = torch.empty_like(x)
    relu_mul_through_out_kernel[(triton.cdiv(x.numel(), 1024),)](x, y, out, x.numel(), BLOCK=1024)
    return out


@triton.jit
def rms_norm_scale_kernel(x_ptr, rms_ptr, out_ptr, stride, n_cols, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    at = tl.program_id(0) * stride + cols
    x = tl.load(x_ptr + at, mask=cols < n_cols, other=0.0).to(tl.float32)
    tl.store(out_ptr + at, x / tl.load(rms_ptr + tl.program_id(0)), mask=cols < n_cols)


def rms_norm_norms_in_torch(x, eps=1e-6):
    """Each row's norm from torch (a pass over x of its own), the kernel only scaling."""
    x = x.contiguous()
    norms = torch.linalg.vector_norm(x, dim=1, dtype=torch.float32)
    rms = torch.sqrt(norms * norms / x.shape[1] + eps)
    out = torch.empty_like(x)
    block = triton.next_power_of_2(x.shape[1])
    rms_norm_scale_kernel[(x.shape[0],)](x, rms, out, x.stride(0), x.shape[1], BLOCK=block)
    return out


def answers() -> dict:
    """Every answer above by name: the functions a learner would pass to ``check``."""
    return {
        name: fn
        for name, fn in globals().items()
        if name.startswith(("relu_mul", "relu_of", "rms_norm")) and not name.endswith("kernel")
    }


# What main reports besides the answers' verdicts, each computed when asked for.
CHECKS = {
    "stub_relu": lambda: check("07.relu_mul", stub, quiet=True).status,
    "stub_rms": lambda: check("07.rms_norm", stub, quiet=True).status,
    "not_a_function": lambda: check("07.rms_norm", 42, quiet=True).hint,
    "watch_removed": lambda: watch_is_removed_after_a_failed_check(),
    "kernel_kept": lambda: isinstance(
        relu_mul_kernel, triton.runtime.interpreter.InterpretedFunction
    ),
}


def graded(name: str):
    """One entry of main's JSON: an answer's status, hint and passed lines, or one of CHECKS."""
    if name in CHECKS:
        return CHECKS[name]()
    exercise_id = "07.relu_mul" if name.startswith("relu") else "07.rms_norm"
    result = check(exercise_id, answers().get(name, stub), quiet=True)
    return {"status": result.status, "hint": result.hint, "passed": list(result.passed)}


def main(names: list[str]) -> None:
    if names[:1] == ["--chapter"]:
        print(json.dumps(chapter_kernels(names[1])))
        return
    if names[:1] == ["--gpu-cells"]:
        print(json.dumps(chapter_gpu_cells()))
        return
    results = {name: graded(name) for name in [*(names or sorted(answers())), *CHECKS]}
    print(json.dumps(results))


if __name__ == "__main__":
    main(sys.argv[1:])
