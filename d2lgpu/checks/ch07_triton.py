"""Checkers of chapter 7: ``07.relu_mul`` and ``07.rms_norm``, two Triton kernels.

The answers are Python functions that launch the learner's Triton kernel:

* ``relu_mul(x, y) -> out``: ``relu(x) * y`` element by element, any shape, into a
  contiguous ``out`` (the prompt says so);
* ``rms_norm(x, eps) -> out``: each row of a 2-D ``x`` divided by its root
  mean square, ``x / sqrt(mean(x**2) + eps)``.

Every check runs on the CPU through Triton's interpreter, with fresh random
inputs of several sizes, most of them not a multiple of any block size, and
with inputs that are not contiguous (a transposed matrix, a slice of a wider
one). The exercise notebook switches the interpreter on (``TRITON_INTERPRET=1``
before triton is imported) on every machine, GPU or not; a kernel compiled
for a GPU is refused with a hint that says how to switch it on. The watched
interpreter is in :mod:`._ch07_interpreter`, what both checkers do with an
answer in :mod:`._ch07_answers`.

Triton is imported when a check runs, never when this module is imported.
"""

from __future__ import annotations

import torch

from ._ch07_answers import (
    agrees,
    call_answer,
    coverage_hint,
    first_difference,
    fresh_generator,
    out_layout_hint,
    random_input,
    require_contiguous_output,
    require_inputs_untouched,
    require_shape,
)
from ._ch07_interpreter import import_triton, require_interpreter, watched_interpreter
from ._util import CheckFailed, one_cpu_thread

__all__ = ["check_relu_mul", "check_rms_norm"]


# ---------------------------------------------------------------------------------------------
# 07.relu_mul


def _relu_mul_cases(gen):
    odd = 4097 + 2 * int(torch.randint(500, 2500, (1,), generator=gen))  # odd: no block fits
    contiguous = [
        ((1,), "n = 1"),
        ((1000,), "n = 1000"),
        ((4096,), "n = 4096"),
        ((odd,), "an odd n between 5,000 and 9,100"),
        ((37, 129), "a 37 x 129 matrix"),
    ]
    for shape, what in contiguous:
        yield random_input(shape, gen), random_input(shape, gen), what, None
    # The output takes x's dtype, not float32. (Not bfloat16: Triton's interpreter, on numpy,
    # rounds it otherwise than torch, and has written garbage into a bfloat16 output.)
    x, y = (random_input((1000,), gen).half() for _ in range(2))
    yield x, y, "n = 1000 in float16", None
    base = random_input((129, 37), gen)
    yield base.t(), random_input((37, 129), gen), "x transposed (37 x 129)", "x is transposed"
    wide = random_input((2 * 3001,), gen)
    yield (
        random_input((3001,), gen),
        wide[::2],
        "y = every other element of a longer vector (n = 3001)",
        "y is every other element of a longer vector: y.stride(0) == 2",
    )


def _relu_mul_diagnosis(out, x, y, watch, where, layout) -> str:
    """The hint for an output that is not relu(x) * y (``layout``: how the inputs are laid
    out when not contiguous, else None)."""
    if layout is not None:
        return (
            f"right on contiguous inputs, wrong when {layout}: its elements are not at "
            "ptr + i. Call .contiguous() on the inputs in your function before the launch "
            "(a no-op when they already are)"
        )
    hint = coverage_hint(out, watch, where)
    if hint:
        return hint
    for formula, wrong in (
        ("relu(x * y)", torch.relu(x * y)),
        ("x * y", x * y),
        ("x * relu(y)", x * torch.relu(y)),
        ("relu(x) + y", torch.relu(x) + y),
    ):
        if agrees(out, wrong):
            return (
                f"for {where}, you computed {formula}, not relu(x) * y: relu applies to "
                "x alone, tl.maximum(x, 0.0), and the result multiplies y"
            )
    expected = torch.relu(x) * y
    i = first_difference(out, expected)
    xi, yi = float(x.reshape(-1)[i]), float(y.reshape(-1)[i])
    got = float(out.reshape(-1)[i])
    if xi < 0 and got != 0:
        return (
            f"for {where}, where x < 0 relu(x) * y is 0 (at index {i}: x = {xi:.3g}, "
            f"y = {yi:.3g}, you wrote {got:.3g}): apply relu to x alone, "
            "tl.maximum(x, 0.0), then multiply by y"
        )
    return (
        f"for {where}, at index {i}: x = {xi:.3g}, y = {yi:.3g}, relu(x) * y = "
        f"{float(expected.reshape(-1)[i]):.3g}, you wrote {got:.3g}"
    )


def _relu_mul_checks(answer, passed) -> None:
    gen = fresh_generator()
    with watched_interpreter() as watch:
        for x, y, where, layout in _relu_mul_cases(gen):
            copies = {"x": x.clone(), "y": y.clone()}
            watch.stores.clear()
            out = call_answer(answer, (x, y), "relu_mul", watch, where)
            require_inputs_untouched({"x": x, "y": y}, copies, watch, "relu_mul", where)
            require_shape(out, x, "relu_mul", where)
            require_contiguous_output(out, "relu_mul", where, "element i at out_ptr + i")
            if not agrees(out, torch.relu(copies["x"]) * copies["y"]):
                raise CheckFailed(
                    _relu_mul_diagnosis(out, copies["x"], copies["y"], watch, where, layout)
                )
        passed.append(
            "relu(x) * y for n = 1, 1000, 4096, an odd n and a 37 x 129 matrix (fresh random "
            "inputs), through Triton's interpreter"
        )
        passed.append("every load and store inside its tensors (masked), each element written once")
        passed.append("the inputs left unchanged")
        passed.append(
            "non-contiguous inputs (a transposed matrix, a strided vector), a contiguous output"
        )
        _require_a_new_output(answer, gen, watch)
        passed.append("a new output in every call: an earlier call's result stays as it was")


def _require_a_new_output(answer, gen, watch) -> None:
    """Two calls of the same shape: the first result must survive the second call."""
    where = "two calls with n = 1000"
    x, y, x2, y2 = (random_input((1000,), gen) for _ in range(4))
    first = call_answer(answer, (x, y), "relu_mul", watch, where)
    call_answer(answer, (x2, y2), "relu_mul", watch, where)
    if not agrees(first, torch.relu(x) * y):
        raise CheckFailed(
            "relu_mul's second call (n = 1000) overwrote what its first call returned: the "
            "output is kept and reused between calls. Make a new output tensor in every call "
            "(torch.empty(x.shape, dtype=x.dtype, device=x.device))"
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


def _rms(x, eps):
    return x / torch.sqrt((x * x).mean(dim=1, keepdim=True) + eps)


def _rms_norm_cases(gen):
    odd = 301 + 2 * int(torch.randint(0, 300, (1,), generator=gen))
    shapes = [((1, 1), "a 1 x 1 matrix"), ((4, 1000), "a 4 x 1000 matrix")]
    shapes += [((3, 1024), "a 3 x 1024 matrix"), ((6, odd), "6 rows of an odd length")]
    shapes += [((64, 65), "a 64 x 65 matrix"), ((2, 1500), "a 2 x 1500 matrix")]
    for shape, what in shapes:
        x = random_input(shape, gen, scale=3.0)
        yield x, 1e-6, what, None
    tiny = random_input((5, 333), gen, scale=1e-4)  # rows whose mean square is below eps
    yield tiny, 1e-5, "rows of tiny values (about 1e-4) with eps = 1e-5", None
    wide = random_input((5, 1000), gen)
    yield (
        wide[:, 100:433],
        1e-6,
        "x = a 5 x 333 slice of a 5 x 1000 matrix",
        "rows of x are x.stride(0) = 1000 elements apart, not 333: pass x.stride(0) to the "
        "kernel as the distance from one row's start to the next (or call x.contiguous() "
        "first)",
    )
    yield (
        random_input((200, 7), gen).t(),
        1e-6,
        "x transposed (7 x 200)",
        "x is transposed: x.stride(1) = 7, so a row's elements are not adjacent; call "
        "x.contiguous() first when x.stride(1) != 1",
    )


_OUT_STRIDE = (
    "x's rows are x.stride(0) elements apart, but the output you made is contiguous, its rows "
    "out.stride(0) = n_cols apart: the output's row stride is not x's. Pass each tensor its "
    "own row stride (x.stride(0) for the loads, out.stride(0) for the stores)"
)


def _rms_norm_diagnosis(out, x, eps, watch, where) -> str:
    hint = coverage_hint(out, watch, where, unit="row")
    if hint:
        return hint
    n = x.shape[1]
    if torch.isnan(out).any() and not torch.isnan(x).any():
        return (
            f"for {where}, your result has NaN: the masked lanes of a load without other= are "
            "undefined on a GPU (NaN here), and the sum of squares adds them in. Give the "
            "masked lanes a value that adds nothing to a sum, with tl.load's other="
        )
    squares = (x * x).sum(dim=1, keepdim=True)
    block = 1
    while block < 2**17:
        if block > n and agrees(out, x / torch.sqrt(squares / block + eps)):
            return (
                f"for {where}, you divided the sum of squares by the block size ({block}), not "
                f"by the number of columns ({n}): the masked lanes are not part of the row"
            )
        block *= 2
    if agrees(out, x / (torch.sqrt(squares / n) + eps)):
        return f"for {where}, eps goes inside the square root: x / sqrt(mean(x * x) + eps)"
    if any(agrees(out, _rms(x, e)) for e in (0.0, 1e-6, 1e-5, 1e-8) if e != eps):
        return f"for {where}, use the eps you are given (here {eps:g}), not another one"
    if agrees(out, x * torch.sqrt(squares / n + eps)):
        return f"for {where}, divide by the root mean square: x / sqrt(mean(x * x) + eps)"
    r = int(first_difference(out, _rms(x, eps)) // max(n, 1))
    return (
        f"for {where}, row {r} differs from x / sqrt(mean(x * x) + eps): expected "
        f"{_rms(x, eps)[r, :3].tolist()}..., you wrote {out[r, :3].tolist()}..."
    )


def _rms_norm_checks(answer, passed) -> None:
    gen = fresh_generator()
    with watched_interpreter() as watch:
        for x, eps, where, layout in _rms_norm_cases(gen):
            copy = x.clone()
            watch.stores.clear()
            # A store past the output here is a row stride: the output's rows are 333 apart.
            outside = _OUT_STRIDE if x.stride(0) != x.shape[1] else ""
            out = call_answer(answer, (x, eps), "rms_norm", watch, where, outside)
            require_inputs_untouched({"x": x}, {"x": copy}, watch, "rms_norm", where)
            require_shape(out, x, "rms_norm", where)
            if agrees(out, _rms(copy, eps)):
                continue
            if layout is not None:
                hint = out_layout_hint(out, "rms_norm", where, "a row's elements side by side")
                raise CheckFailed(hint or f"right on contiguous inputs, wrong when {layout}")
            raise CheckFailed(_rms_norm_diagnosis(out, copy, eps, watch, where))
        passed.append(
            "x / sqrt(mean(x * x) + eps) per row, for rows of 1, 65, 333, 1000, 1024, 1500 and "
            "an odd number of columns (fresh random inputs), through Triton's interpreter"
        )
        passed.append(
            "every load and store inside its tensors (masked), masked lanes not summed, every "
            "row written"
        )
        passed.append("eps inside the square root, as given; the input left unchanged")
        passed.append("non-contiguous inputs (a slice of a wider matrix, a transposed one)")


def check_rms_norm(answer, passed):
    """``rms_norm(x, eps)``: a row-wise Triton kernel on several shapes and layouts."""
    if not callable(answer):
        raise CheckFailed("pass the function itself: check('07.rms_norm', rms_norm)")
    import_triton()
    require_interpreter(answer)
    one_cpu_thread(_rms_norm_checks)(answer, passed)
