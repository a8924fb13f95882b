"""What a wrong result of chapter 7's exercises equals, said as a hint (:mod:`.ch07_triton`).

A result the kernel never wrote, elements or rows written twice or never (from
the recorded stores, :mod:`._ch07_answers`), then the formulas a learner is
likely to have computed instead: ``relu(x * y)`` or ``x * relu(y)``, a mean over
the block, eps outside the square root or another eps, each column normalized
instead of each row, squares summed in float16.
"""

from __future__ import annotations

import torch

from ._ch07_answers import agrees, coverage_hint, first_difference, kernel_output_hint

__all__ = ["OUT_STRIDE", "relu_mul_diagnosis", "rms", "rms_norm_diagnosis"]


def _relu_mul_formula(out, x, y, where) -> str | None:
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
    return None


def relu_mul_diagnosis(out, x, y, watch, where, layout) -> str:
    """The hint for an output that is not relu(x) * y (``layout``: how the inputs are laid
    out when not contiguous, else None)."""
    if layout is not None:
        return (
            f"right on contiguous inputs, wrong when {layout}: its elements are not at "
            "ptr + i. Call .contiguous() on the inputs in your function before the launch "
            "(a no-op when they already are)"
        )
    hint = _relu_mul_formula(out, x, y, where) if not watch.stored_into(out) else None
    hint = hint or kernel_output_hint(out, watch, "relu_mul", where)
    hint = hint or coverage_hint(out, watch, where) or _relu_mul_formula(out, x, y, where)
    if hint:
        return hint
    expected = torch.relu(x) * y
    if out.dtype == torch.float32 and agrees(out, expected, rtol=1e-2, atol=1e-3):
        return (
            f"for {where}, your result is within 1% of relu(x) * y but not within float32's "
            "precision: a value was rounded to 16 bits on the way (x, relu(x) or the product "
            "converted to y's float16, .to(y_ptr.dtype.element_ty) or .to(tl.float16)). A "
            "float32 times a float16 is a float32 in Triton, as in PyTorch: keep it, and "
            "tl.store converts to the output's dtype"
        )
    if x.dtype != y.dtype and agrees(out, torch.relu(x) * y.to(x.dtype)):
        return (
            f"for {where}, your result is relu(x) * y with y rounded to x's {_name(x.dtype)} "
            "before the product: a float16 times a float32 is a float32 in Triton, as in "
            "PyTorch. Multiply the values as loaded (no .to() of y), and tl.store rounds the "
            "product once, to the output's dtype"
        )
    i = first_difference(out, expected)
    xi, yi = float(x.reshape(-1)[i]), float(y.reshape(-1)[i])
    got = float(out.reshape(-1)[i])
    if xi < 0 and got != 0:
        return (
            f"for {where}, where x < 0 relu(x) * y is 0 (at index {i}: x = {xi:.3g}, "
            f"y = {yi:.3g}, you wrote {got:.3g}): apply relu to x alone, "
            "tl.maximum(x, 0.0), then multiply by y"
        )
    want = float(expected.to(out.dtype).reshape(-1)[i])
    digits = next(d for d in (3, 5, 8) if f"{want:.{d}g}" != f"{got:.{d}g}" or d == 8)
    return (
        f"for {where}, at index {i}: x = {xi:.{digits}g}, y = {yi:.{digits}g}, relu(x) * y = "
        f"{want:.{digits}g}, you wrote {got:.{digits}g}"
    )


def _name(dtype) -> str:
    return str(dtype).removeprefix("torch.")


def rms(x, eps):
    """x / sqrt(mean(x * x) + eps) per row, computed in float32, in x's dtype."""
    x32 = x.float()
    return (x32 / torch.sqrt((x32 * x32).mean(dim=1, keepdim=True) + eps)).to(x.dtype)


OUT_STRIDE = (
    "x's rows are x.stride(0) elements apart, but the output you made is contiguous, its rows "
    "out.stride(0) = n_cols apart: the output's row stride is not x's. Pass each tensor its "
    "own row stride (x.stride(0) for the loads, out.stride(0) for the stores)"
)


def _columns(out, x, eps, where) -> str | None:
    if x.shape[0] > 1 and agrees(out, rms(x.t(), eps).t()):
        return (
            f"for {where}, you normalized each column (the mean of x * x over dim 0, down the "
            "rows), not each row: one program per row, program tl.program_id(0) loads the "
            "n_cols elements of its row (x_ptr + row * x_row_stride + cols) and divides them "
            "by their own root mean square"
        )
    return None


def rms_norm_diagnosis(out, x, eps, watch, where, default=False) -> str:
    """``default``: the answer was called without eps, so ``eps`` is the signature's 1e-6."""
    hint = _columns(out, x, eps, where) if not watch.stored_into(out) else None
    hint = hint or kernel_output_hint(out, watch, "rms_norm", where)
    hint = hint or coverage_hint(out, watch, where, unit="row") or _columns(out, x, eps, where)
    if hint:
        return hint
    n = x.shape[1]
    if torch.isnan(out).any() and not torch.isnan(x).any():
        return (
            f"for {where}, your result has NaN: the masked lanes of a load without other= are "
            "undefined on a GPU (NaN here), and the sum of squares adds them in. Give the "
            "masked lanes a value that adds nothing to a sum, with tl.load's other="
        )
    if x.dtype == torch.float16:
        return (
            f"for {where}, your result is wrong for a float16 x (right for float32): x * x "
            "overflows float16 for values above 256 (its largest value is 65504), and the sum "
            "of squares loses precision. Convert what you load to float32, tl.load(...)"
            ".to(tl.float32), square and sum in float32; tl.store converts to the output's dtype"
        )
    squares = (x * x).sum(dim=1, keepdim=True)
    mean = squares / n
    floors = (torch.sqrt(torch.clamp(mean, min=eps)), torch.clamp(torch.sqrt(mean), min=eps))
    other = any(agrees(out, rms(x, e)) for e in (0.0, 1e-6, 1e-5, 1e-8) if e != eps)
    if not other and not agrees(out, rms(x, eps)) and any(agrees(out, x / f) for f in floors):
        return (
            f"for {where}, you used eps as a floor (a max with the mean square), not added to "
            "it: x / sqrt(mean(x * x) + eps). The two differ on rows whose mean square is near "
            "eps or below it, as here"
        )
    block = 1
    while block < 2**17:
        if block > n and agrees(out, x / torch.sqrt(squares / block + eps)):
            return (
                f"for {where}, you divided the sum of squares by the block size ({block}), not "
                f"by the number of columns ({n}): the masked lanes are not part of the row"
            )
        block *= 2
    used = [  # an eps that tells apart: on rows far larger than eps, any eps agrees
        e
        for e in (0.0, 1e-6, 1e-5, 1e-8)
        if e != eps and agrees(out, rms(x, e)) and not agrees(rms(x, e), rms(x, eps))
    ]
    if agrees(out, x / (torch.sqrt(squares / n) + eps)):
        left_out = "you left eps out, or added it outside the root (here the two agree): " * (
            used[:1] == [0.0]
        )
        return (
            f"for {where}, {left_out}eps goes inside the square root: x / sqrt(mean(x * x) + eps)"
        )
    if used[:1] == [0.0]:
        return (
            f"for {where}, your result has no eps: x / sqrt(mean(x * x) + eps), with the eps "
            f"you are given (here {eps:g})"
        )
    if used and default:
        return (
            f"for {where}, your rms_norm used eps = {used[0]:g}: the exercise's signature "
            "gives eps a default of 1e-6, def rms_norm(x, eps=1e-6); keep that default"
        )
    if used:
        return f"for {where}, use the eps you are given (here {eps:g}), not another one"
    if agrees(out, x * torch.sqrt(squares / n + eps)):
        return f"for {where}, divide by the root mean square: x / sqrt(mean(x * x) + eps)"
    if agrees(out, x / torch.sqrt(squares + eps)):
        return (
            f"for {where}, you divided by the root of the sum of squares, not of their mean: "
            f"divide the sum by the number of columns ({n}), x / sqrt(sum(x * x) / n_cols + eps)"
        )
    centered = x - x.mean(dim=1, keepdim=True)
    for spread in ((centered * centered).mean(dim=1, keepdim=True), squares / n):
        if agrees(out, centered / torch.sqrt(spread + eps)):
            return (
                f"for {where}, you subtracted each row's mean first, as LayerNorm does: RMSNorm "
                "does not center the row; divide x itself by sqrt(mean(x * x) + eps)"
            )
    if (out == 0).all() and (x != 0).any():
        return (
            f"for {where}, your result is 0 everywhere: the sum of squares came out infinite, "
            "as where the masked lanes load other=float('-inf') (or inf), whose squares are "
            "inf. Give the masked lanes a value that adds nothing to a sum, other=0.0"
        )
    for count in (n - 1, n + 1):
        if count > 0 and agrees(out, x / torch.sqrt(squares / count + eps)):
            return (
                f"for {where}, you divided the sum of squares by {count}, not by the number of "
                f"columns ({n}): mean(x * x) is the sum over the row divided by n_cols"
            )
    if x.dtype == torch.float32 and agrees(out, rms(x, eps), rtol=1e-2, atol=1e-3):
        return (
            f"for {where}, your result is within 1% of x / sqrt(mean(x * x) + eps) but not "
            "within float32's precision: a value was rounded to 16 bits on the way (a "
            ".to(tl.float16) or .to(tl.bfloat16) of the squares, their sum or the result). "
            "Keep every step in float32; tl.store converts to the output's dtype"
        )
    r = int(first_difference(out, rms(x, eps)) // max(n, 1))
    return (
        f"for {where}, row {r} differs from x / sqrt(mean(x * x) + eps): expected "
        f"{rms(x, eps)[r, :3].tolist()}..., you wrote {out[r, :3].tolist()}..."
    )
