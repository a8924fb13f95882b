"""Checkers of chapter 7: ``07.relu_mul`` and ``07.rms_norm``, two Triton kernels.

The answers are Python functions that launch the learner's Triton kernel:

* ``relu_mul(x, y) -> out``: ``relu(x) * y`` element by element, any shape, into a
  contiguous ``out`` (the prompt says so);
* ``rms_norm(x, eps) -> out``: each row of a 2-D ``x`` divided by its root
  mean square, ``x / sqrt(mean(x**2) + eps)``.

Every check runs on the CPU through Triton's interpreter, with fresh random
inputs of several sizes, most of them not a multiple of any block size, and
with inputs that are not contiguous (a transposed matrix, a slice of a wider
one). Once a result is right, its cost is asked for: one launch, and no pass over
memory outside the kernel (:mod:`._ch07_passes`). The exercise notebook switches the interpreter on (``TRITON_INTERPRET=1``
before triton is imported) on every machine, GPU or not; a kernel compiled
for a GPU is refused with a hint that says how to switch it on. The watched
interpreter is in :mod:`._ch07_interpreter`, what both checkers do with an
answer in :mod:`._ch07_answers`, the cases in :mod:`._ch07_cases`.

Triton is imported when a check runs, never when this module is imported.
"""

from __future__ import annotations

import contextlib

import torch

from ._ch07_answers import (
    agrees,
    call_answer,
    fresh_generator,
    out_layout_hint,
    random_input,
    require_contiguous_output,
    require_inputs_untouched,
    require_one_pass,
    require_shape,
)
from ._ch07_cases import relu_mul_cases, rms_norm_cases
from ._ch07_diagnoses import OUT_STRIDE, relu_mul_diagnosis, rms, rms_norm_diagnosis
from ._ch07_interpreter import import_triton, require_interpreter, watched_interpreter
from ._util import CheckFailed, one_cpu_thread, refused_call_named

__all__ = ["check_relu_mul", "check_rms_norm"]


# ---------------------------------------------------------------------------------------------
# 07.relu_mul


def _require_each_input_read_once(watch, where: str) -> None:
    again = watch.loaded_again()
    if again:
        raise CheckFailed(
            f"for {where}, your kernel loaded {again} element(s) more than once: each tl.load "
            "is a read of memory, and the fused kernel reads x and y once each (3 n floats "
            "moved). Load each input once, x = tl.load(x_ptr + offsets, mask=mask), and "
            "compute both the relu and the product from the value loaded"
        )


def _require_out_stored_once(out, watch, where: str) -> None:
    """Each element of ``out`` stored once: no intermediate kept in it on the way. A load of
    the output alone is a kernel working in place on a private copy of x, which is right."""
    if not out.is_contiguous() or not out.numel():
        return
    twice, back = int((watch.written(out) > 1).sum()), watch.loaded_from(out)
    if twice:
        raise CheckFailed(
            f"for {where}, your kernel stored {twice} element(s) of the output more than once"
            + (f" and loaded {back} back from it" if back else "")
            + ": each tl.store is a write of memory, and the fused kernel writes each element "
            "of the result once"
            + (
                " (relu(x) stored, read back, then multiplied: up to 2 n more floats moved "
                "than the fused kernel's 3 n)"
                if back
                else ""
            )
            + ". Keep the intermediate in registers: load x and y once, and store relu(x) * y "
            "once"
        )


def _require_a_fixed_block(sizes: dict, name: str) -> None:
    """``sizes``: n -> (programs, loads) of the 1-D contiguous cases. A fixed BLOCK runs more
    programs for twice the elements, or (a grid-stride loop) more loads in each; a BLOCK grown
    with n (a set number of programs, one block each) runs as many of both."""
    for n, (programs, loads) in sizes.items():
        same = [m for m, p in sizes.items() if m >= 2 * n and p == (programs, loads)]
        same = same if programs > 1 and loads else []
        if same:
            raise CheckFailed(
                f"{name} ran n = {n} and n = {same[0]} as {programs} programs each: a BLOCK that "
                "grows with n (a set number of programs), not a fixed one. Each new BLOCK is "
                "another compile of the kernel, and a large one holds more values than a "
                "program's registers: keep BLOCK fixed (say 1024) and let the grid grow, "
                "triton.cdiv(n, BLOCK) programs"
            )


_ONE_PASS = (
    "one launch per call and no pass over memory outside the kernel (no torch computation, "
    "cast, fill, or copy of a contiguous input), "
)


def _relu_mul_checks(answer, passed) -> None:
    gen = fresh_generator()
    with watched_interpreter() as watch:
        sizes: dict = {}  # n -> (programs, loads), for the 1-D contiguous cases
        for x, y, where, layout in relu_mul_cases(gen):
            copies = {"x": x.clone(), "y": y.clone()}
            watch.stores.clear()
            watch.loads.clear()
            grids = len(watch.grids)
            out = call_answer(answer, (x, y), "relu_mul", watch, where)
            if x.dim() == 1 and layout is None and len(watch.grids) == grids + 1:
                gx, gy, gz = watch.grids[-1]
                sizes.setdefault(x.numel(), (gx * gy * gz, len(watch.loads)))
            require_inputs_untouched({"x": x, "y": y}, copies, watch, "relu_mul", where, out)
            require_shape(out, x, "relu_mul", where)
            require_contiguous_output(out, "relu_mul", where, "element i at out_ptr + i")
            # in float32 where either is, compared in x's dtype: the kernel's product, rounded once
            if not agrees(out, torch.relu(copies["x"]) * copies["y"]):
                raise CheckFailed(
                    relu_mul_diagnosis(out, copies["x"], copies["y"], watch, where, layout)
                )
            require_one_pass(out, watch, "relu_mul", where, x.numel(), "element")
            _require_each_input_read_once(watch, where)
            _require_out_stored_once(out, watch, where)
        _require_a_fixed_block(sizes, "relu_mul")
        passed.append(
            "relu(x) * y for n = 1, 1000, 4096, an odd n and a 37 x 129 matrix (fresh random "
            "inputs), in float16, and with one of x and y in float32 and the other in float16, "
            "through Triton's interpreter"
        )
        passed.append(
            "every load and store inside its tensors (masked), each element read once and "
            "written once"
        )
        passed.append("the inputs left unchanged")
        passed.append(
            "non-contiguous inputs (a transposed matrix, a strided vector, a slice of a wider "
            "matrix's columns), a contiguous output"
        )
        passed.append(_ONE_PASS + "over triton.cdiv(n, BLOCK) programs, BLOCK fixed")
        first, second = ((random_input((1000,), gen), random_input((1000,), gen)) for _ in "ab")
        relu_mul = lambda x, y: torch.relu(x) * y  # noqa: E731
        _require_a_new_output(answer, "relu_mul", relu_mul, "n = 1000", first, second, watch)
        passed.append(_NEW_OUTPUT)


_NEW_OUTPUT = (
    "a new output in every call: an earlier call's result stays as it was, and the same "
    "tensors with new values give new results"
)


def _require_a_new_output(answer, name: str, reference, shape: str, first, second, watch, rows=0):
    """Two calls with inputs of the same shape (``first`` and ``second``, argument tuples):
    the first call's result, ``reference(*first)``, must survive the second call (``rows``:
    as :func:`call_answer`'s)."""
    where = f"two calls with {shape}"
    expected = reference(*first)
    out = call_answer(answer, first, name, watch, where, rows=rows)
    call_answer(answer, second, name, watch, where, rows=rows)
    if not agrees(out, expected):
        raise CheckFailed(
            f"{name}'s second call ({shape}) overwrote what its first call returned: the "
            "output is kept and reused between calls. Make a new output tensor in every call "
            "(torch.empty(x.shape, dtype=x.dtype, device=x.device))"
        )
    for t in first:  # the same tensors, same address, shape and strides, new values
        if isinstance(t, torch.Tensor):
            t.mul_(-0.5)
    where = f"{where}, then the first call's tensors again, their values changed in place"
    again = call_answer(answer, first, name, watch, where, rows=rows)
    if again is out or agrees(again, expected):
        raise CheckFailed(
            f"{name} called again on the first call's tensors ({shape}), whose values had "
            "changed in place since, returned the first call's result: a result kept between "
            "calls, looked up by the tensors' address, shape or strides, misses new values in "
            "the same memory. Launch the kernel in every call"
        )


def check_relu_mul(answer, passed):
    """``relu_mul(x, y)``: a Triton kernel's ``relu(x) * y`` on several sizes and layouts."""
    if not callable(answer):
        raise CheckFailed("pass the function itself: check('07.relu_mul', relu_mul)")
    import_triton()
    require_interpreter(answer)
    one_cpu_thread(_relu_mul_checks)(answer, passed)


# ---------------------------------------------------------------------------------------------
# 07.rms_norm


def _rms_norm_checks(answer, passed) -> None:
    gen = fresh_generator()
    with watched_interpreter() as watch, np_quiet():
        for x, eps, where, layout in rms_norm_cases(gen):
            copy = x.clone()
            watch.stores.clear()
            watch.loads.clear()
            # A store past the output here is a row stride: the output's rows are 333 apart.
            outside = OUT_STRIDE if x.stride(0) != x.shape[1] else ""
            args = (x,) if eps is None else (x, eps)
            with refused_call_named(answer):
                rows = x.shape[0] if x.dim() == 2 else 0  # one program per row
                out = call_answer(answer, args, "rms_norm", watch, where, outside, rows)
            require_inputs_untouched({"x": x}, {"x": copy}, watch, "rms_norm", where, out)
            require_shape(out, x, "rms_norm", where)
            eps = 1e-6 if eps is None else eps
            if not agrees(out.float(), rms(copy, eps).float(), **_TOLERANCE[x.dtype]):
                if layout is not None:
                    hint = out_layout_hint(out, "rms_norm", where, "a row's elements side by side")
                    raise CheckFailed(hint or f"right on contiguous inputs, wrong when {layout}")
                default = len(args) == 1
                raise CheckFailed(rms_norm_diagnosis(out, copy, eps, watch, where, default))
            require_contiguous_output(out, "rms_norm", where, None)  # right values
            require_one_pass(out, watch, "rms_norm", where, x.shape[0], "row")
        passed.append(
            "x / sqrt(mean(x * x) + eps) per row, for rows of 1, 33, 65, 333, 1000, 1024, 1500 "
            "and an odd number of columns (fresh random inputs), through Triton's interpreter"
        )
        passed.append(
            "every load and store inside its tensors (masked), masked lanes not summed, every "
            "row written"
        )
        passed.append("eps inside the square root, as given; the input left unchanged")
        passed.append("non-contiguous inputs (a slice of a wider matrix, a transposed one)")
        passed.append("a float16 x of values in the hundreds (squares summed in float32)")
        passed.append("rms_norm(x) without eps: the signature's default, eps = 1e-6")
        passed.append(_ONE_PASS + "one program per row")
        first, second = ((random_input((4, 1000), gen, scale=3.0), 1e-6) for _ in "ab")
        _require_a_new_output(
            answer, "rms_norm", rms, "a 4 x 1000 matrix", first, second, watch, rows=4
        )
        passed.append(_NEW_OUTPUT)


# float16 keeps 11 bits: a result computed in float32 and rounded once is within 1e-3
_TOLERANCE = {torch.float32: {}, torch.float16: {"rtol": 2e-3, "atol": 1e-3}}


@contextlib.contextmanager
def np_quiet():
    """numpy's overflow warnings (a float16 square past 65504) are said in the hint instead."""
    import numpy as np

    with np.errstate(over="ignore", invalid="ignore"):
        yield


def check_rms_norm(answer, passed):
    """``rms_norm(x, eps)``: a row-wise Triton kernel on several shapes and layouts."""
    if not callable(answer):
        raise CheckFailed("pass the function itself: check('07.rms_norm', rms_norm)")
    import_triton()
    require_interpreter(answer)
    one_cpu_thread(_rms_norm_checks)(answer, passed)
