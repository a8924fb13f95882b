"""What both Triton checkers (:mod:`.ch07_triton`) do with an answer.

Call it (a load or store out of bounds, stopped by :mod:`._ch07_interpreter`,
becomes a hint; its torch operations and launches are recorded by
:mod:`._ch07_passes`), require an output of the input's shape and dtype and inputs
left unchanged, and read from the recorded stores which elements the kernel never
or twice wrote. Inputs are fresh random numbers each run, so a kernel cannot pass by
matching one fixed set of numbers.
"""

from __future__ import annotations

import os

import torch

from ._ch07_interpreter import OutOfBounds, Watch
from ._ch07_passes import device_hint, launch_hint, ops_hint, watched_torch_ops
from ._util import CheckFailed, mark_case

__all__ = [
    "agrees",
    "call_answer",
    "out_layout_hint",
    "require_contiguous_output",
    "kernel_output_hint",
    "require_kernel_output",
    "require_one_pass",
    "require_inputs_untouched",
    "require_shape",
    "coverage_hint",
    "first_difference",
    "fresh_generator",
    "random_input",
]


def random_input(shape, generator, scale=1.0) -> torch.Tensor:
    return torch.randn(shape, generator=generator) * scale


def fresh_generator() -> torch.Generator:
    # Fresh inputs each run: a kernel cannot pass by matching one fixed set of numbers.
    return torch.Generator().manual_seed(int.from_bytes(os.urandom(8), "little") >> 1)


def call_answer(answer, args, name: str, watch: Watch, where: str, store_outside="", rows=0):
    """``answer(*args)``, with a read or write out of bounds turned into a hint;
    ``store_outside``, when given, is the hint for a store out of bounds in this case (one
    whose layout, not a missing mask, sends a store past the output); ``rows``, where the
    kernel runs one program per row, their count (a larger 1-D grid is named). What the call
    cost (launches, grids, torch operations) is appended to ``watch.calls``; a call that
    launched no kernel after one that did is named as a result kept between calls."""
    try:
        with watched_torch_ops(watch, args) as call:
            out = answer(*args)
    except OutOfBounds as error:
        verb = "read" if error.kind == "load" else "wrote"
        if store_outside and error.kind == "store":
            raise CheckFailed(
                f"for {where}, your kernel wrote {error.count} element(s) past the end of the "
                f"output (stopped before it did): {store_outside}"
            ) from None
        grid = watch.grids[-1] if watch.grids else (0, 1, 1)
        if 0 < rows < grid[0] and grid[1:] == (1, 1):  # a 1-D grid of more programs than rows
            raise CheckFailed(
                f"for {where}, your kernel {verb} {error.count} element(s) outside the tensors "
                f"it was given (stopped before it did): the grid launched {grid[0]} programs "
                f"for {rows} rows, and the programs past the last row reach past the end. "
                "Launch one program per row, a grid of (x.shape[0],)"
            ) from None
        raise CheckFailed(
            f"for {where}, your kernel {verb} {error.count} element(s) outside the tensors it "
            "was given (stopped before it did): the last block runs past the end. Mask every "
            f"load and store (mask = offsets < n, tl.{error.kind}(..., mask=mask)) and use each "
            "tensor's own strides"
        ) from None
    except Exception as error:  # the learner's own: its hint names the case
        mark_case(error, where)
        raise
    watch.calls.append(call)
    if not call.launches and any(earlier.launches for earlier in watch.calls[:-1]):
        raise CheckFailed(
            f"{name} launched no Triton kernel for {where}, though earlier calls did: a result "
            "kept between calls and looked up by the tensors' address, shape or strides "
            "answered instead (a new tensor can take a freed one's memory, and the same tensor "
            "can hold new values). Launch the kernel in every call"
        )
    if not call.launches:
        raise CheckFailed(
            f"{name} launched no Triton kernel (for {where}): compute the result in your "
            "@triton.jit kernel, launched as kernel[grid](...), not with torch operations"
        )
    if not isinstance(out, torch.Tensor):
        raise CheckFailed(
            f"{name} returned a {type(out).__name__}: return the output tensor your kernel "
            "wrote (e.g. out = torch.empty_like(x), filled by the kernel)"
        )
    return out


def require_one_pass(out, watch: Watch, name: str, where: str, n: int, unit: str) -> None:
    """A right result that cost one kernel and nothing more: no torch operation of the
    learner's that passes over memory, the kernel's own output returned, one launch, and
    not a large input run as one program (:mod:`._ch07_passes`)."""
    call = watch.calls[-1]
    hint = device_hint(call, out, watch, name, where) or ops_hint(call, name, where)
    if hint:
        raise CheckFailed(hint)
    require_kernel_output(out, watch, name, where)
    hint = launch_hint(call, name, where, n, unit)
    if hint:
        raise CheckFailed(hint)


# What each exercise's result computed again with torch operations looks like.
_AGAIN = {"rms_norm": "x * torch.rsqrt((x * x).mean(1, keepdim=True) + eps)"}


def kernel_output_hint(out: torch.Tensor, watch: Watch, name: str, where: str) -> str | None:
    """The tensor returned is (a view of) memory the kernel stored into: the kernel's output,
    not a result computed again with torch operations, nor a copy of it."""
    if out.numel() and not watch.stored_into(out) and watch.given(out):
        return (
            f"for {where}, your kernel was given the tensor {name} returned but stored none of "
            "its elements, so it holds whatever its memory held (torch.empty does not clear "
            "it): a store masked by more than the bounds (such as x > 0) leaves elements "
            "unwritten. Store every element in bounds, mask = offsets < n, the zeros too"
        )
    if out.numel() and not watch.stored_into(out):
        return (
            f"for {where}, {name} returned a tensor your kernel never wrote: it launched the "
            "kernel, but the result is not the kernel's output (a result computed again with "
            f"torch operations, such as {_AGAIN.get(name, 'torch.relu(x) * y')}, or a copy). "
            "Return the tensor your "
            "kernel stored into, made in x's dtype (torch.empty(x.shape, dtype=x.dtype, "
            "device=x.device))"
        )
    return None


def require_kernel_output(out: torch.Tensor, watch: Watch, name: str, where: str) -> None:
    hint = kernel_output_hint(out, watch, name, where)
    if hint:
        raise CheckFailed(hint)


def require_inputs_untouched(
    inputs: dict, copies: dict, watch: Watch, name: str, where: str, out=None
) -> None:
    for arg, t in inputs.items():
        same = isinstance(out, torch.Tensor) and out.numel() and t.numel()
        if same and out.untyped_storage().data_ptr() == t.untyped_storage().data_ptr():
            raise CheckFailed(
                f"for {where}, the tensor {name} returned is {arg} itself (the same memory), so "
                f"your kernel stored into {arg}, an input, and overwrote it: {arg}.contiguous() "
                f"returns {arg} itself, not a copy, when {arg} is already contiguous (as do view "
                "and reshape). Make a new output for the result, torch.empty_like(x) after "
                "x = x.contiguous()"
            )
        if isinstance(out, torch.Tensor) and watch.rows_placed_at(t, out):
            raise CheckFailed(
                f"for {where}, your kernel stored the output's rows {arg}.stride(0) apart, "
                f"{arg}'s row stride, so past the end of the output and into {arg}'s memory: "
                f"{OUT_ROWS}"
            )
        if watch.stored_into(t):
            raise CheckFailed(
                f"for {where}, your kernel stored into {arg}, an input: store the result through "
                "the output's pointer (out_ptr), and leave the inputs as they were"
            )
        if not torch.equal(t, copies[arg]):
            raise CheckFailed(
                f"for {where}, {name} changed its input {arg} in place: compute into a new "
                "output tensor (torch.empty_like) and leave the inputs as they were"
            )


OUT_ROWS = (
    "the output you made is contiguous, its rows out.stride(0) = n_cols apart. Pass each "
    "tensor its own row stride (x.stride(0) for the loads, out.stride(0) for the stores)"
)


def require_shape(out, like, name, where) -> None:
    if out.shape != like.shape or out.dtype != like.dtype or out.device.type != "cpu":
        raise CheckFailed(
            f"for {where}, {name} returned a {out.dtype} tensor of shape {tuple(out.shape)} on "
            f"{out.device}; it must have x's shape {tuple(like.shape)} and dtype "
            f"{like.dtype}, on x's device (torch.empty(x.shape, dtype=x.dtype, "
            "device=x.device))"
        )


def out_layout_hint(out, name: str, where: str, writes: str | None) -> str | None:
    """What is wrong with a non-contiguous output, which a kernel that ``writes`` as a
    contiguous one fills in the wrong places (``torch.empty_like`` of a transposed input);
    ``writes`` None: the values are right, written through the output's own strides."""
    if out.is_contiguous():
        return None
    if writes is None:
        return (
            f"for {where}, {name} returned the right values in a tensor that is not "
            f"contiguous (strides {out.stride()}): torch.empty_like(x) copies x's layout, so "
            "a transposed x gives a transposed output, which every later operation reads with "
            "a stride. Make the output with torch.empty(x.shape, dtype=x.dtype, "
            "device=x.device), as the exercise asks"
        )
    dense = torch.empty(out.shape).stride()
    return (
        f"for {where}, {name} returned a tensor that is not contiguous (strides {out.stride()}; "
        f"a contiguous one of this shape has {dense}), and your kernel writes {writes}. "
        "torch.empty_like(x) copies x's layout: call it after x = x.contiguous(), or make the "
        "output with torch.empty(x.shape, dtype=x.dtype, device=x.device)"
    )


def require_contiguous_output(out, name: str, where: str, writes: str | None) -> None:
    hint = out_layout_hint(out, name, where, writes)
    if hint:
        raise CheckFailed(hint)


def coverage_hint(out, watch: Watch, where: str, unit: str = "element") -> str | None:
    """What the recorded stores say about a wrong output: elements never or twice written."""
    if not out.is_contiguous() or out.numel() == 0:
        return None
    counts = watch.written(out)
    if unit == "row":
        per_row = counts.reshape(-1, out.shape[-1])
        partly = ((per_row.max(axis=1) > 0) & (per_row.min(axis=1) == 0)).nonzero()[0]
        if len(partly):
            r = int(partly[0])
            if per_row[r].max() > 1:
                done = int((per_row[r] > 0).sum())
                return (
                    f"for {where}, in row {r} the first {done} columns were written "
                    f"{int(per_row[r].max())} times each and the other {out.shape[-1] - done} "
                    "never: your loop over the row's chunks does not move its offsets. Each "
                    "chunk starts where the last ended: cols = start + tl.arange(0, BLOCK) "
                    "for start in range(0, n_cols, BLOCK), masked by cols < n_cols, in both "
                    "the sum and the store"
                )
            return (
                f"for {where}, row {r} was only partly written ({int((per_row[r] > 0).sum())} "
                f"of {out.shape[-1]} columns): one program handles a whole row, so BLOCK must "
                "be at least n_cols: BLOCK = triton.next_power_of_2(n_cols)"
            )
        counts = per_row.max(axis=1)
    never = (counts == 0).nonzero()[0]
    twice = int((counts > 1).sum()) if unit == "element" else 0
    if twice:
        return (
            f"for {where}, {twice} element(s) were written by more than one program"
            + (f" and {len(never)} by none" if len(never) else "")
            + ": program pid must handle elements pid * BLOCK to pid * BLOCK + BLOCK - 1 "
            "(offsets = pid * BLOCK + tl.arange(0, BLOCK))"
        )
    if not len(never):
        return None
    first, total = int(never[0]), len(counts)
    if unit == "row":
        return (
            f"for {where}, "
            + (f"row {first} was" if first == total - 1 else f"rows {first} to {total - 1} were")
            + " never written: launch one program per row (a grid of n_rows programs), and let program "
            "tl.program_id(0) handle its row"
            if list(never) == list(range(first, total))
            else f"for {where}, {len(never)} row(s) (the first: row {first}) were never written: "
            "program tl.program_id(0) must handle exactly that row"
        )
    rows = out.shape[0] if out.dim() > 1 else 0
    if list(never) == list(range(first, total)) and first == rows:
        return (
            f"for {where}, only the first {first} elements were written, as many as x has rows "
            f"(x.shape[0] = {rows}), and elements {first} to {total - 1} never: n, the number of "
            "elements the kernel covers, is x.numel() (every element of a tensor of any shape), "
            "not x.shape[0] or len(x)"
        )
    if list(never) == list(range(first, total)):
        return (
            f"for {where}, elements {first} to {total - 1} (the last {total - first}) were never "
            "written: the grid is one program short; launch triton.cdiv(n, BLOCK) programs, "
            "not n // BLOCK, so the last, partial block is covered (and size the grid with the "
            "BLOCK the kernel is given, not another)"
        )
    runs = 1 + int((never[1:] != never[:-1] + 1).sum())
    if runs > max(len(never) // 4, 2):  # scattered one by one: a mask that follows the values
        return (
            f"for {where}, {len(never)} element(s) scattered through the result (the first: "
            f"index {first}) were never written, so they hold whatever their memory held: a "
            "store masked by more than the bounds (such as x > 0) skips them. Store every "
            "element in bounds, mask = offsets < n, the zeros too"
        )
    return (
        f"for {where}, {len(never)} element(s) (the first: index {first}) were never written: "
        "program pid must handle elements pid * BLOCK to pid * BLOCK + BLOCK - 1 "
        "(offsets = pid * BLOCK + tl.arange(0, BLOCK)), and the grid must cover all n"
    )


def _in_dtype_of(out, expected):
    """``expected`` in ``out``'s floating dtype (a float32 formula against a float16 output)."""
    if out.dtype != expected.dtype and out.is_floating_point():
        return expected.to(out.dtype)
    return expected


def first_difference(out, expected) -> int:
    expected = _in_dtype_of(out, expected)
    bad = ~torch.isclose(out, expected, rtol=1e-4, atol=1e-5, equal_nan=False)
    return int(bad.reshape(-1).nonzero()[0, 0]) if bad.any() else -1


def agrees(out, expected, rtol=1e-4, atol=1e-5) -> bool:
    return out.shape == expected.shape and bool(
        torch.isclose(out, _in_dtype_of(out, expected), rtol=rtol, atol=atol).all()
    )
