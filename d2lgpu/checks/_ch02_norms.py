"""``02.frobenius``'s wrong norms: the values a learner's log holds when it took another of
X's norms, or divided X by something other than its norm (its largest entry, the norm plus
an epsilon), or kept them in a narrower dtype, each named with its fix."""

from __future__ import annotations

import math

import torch

__all__ = [
    "added_to_norm",
    "autocast_hint",
    "by_largest_entry",
    "normalized_by",
    "overflow_hint",
    "rounded_to",
    "which_norm",
    "wrong_norms_hint",
]


# Norms a learner may take for the Frobenius norm, of X = A after step 1.
_OTHER_NORMS = {
    "X's spectral norm (ord=2, its largest singular value)": lambda X: torch.linalg.matrix_norm(X, 2),
    "X's nuclear norm (ord='nuc')": lambda X: torch.linalg.matrix_norm(X, "nuc"),
    "X's Frobenius norm squared": lambda X: torch.linalg.matrix_norm(X) ** 2,
    "X's largest entry in absolute value": lambda X: X.abs().max(),
    "the sum of X's entries in absolute value": lambda X: X.abs().sum(),
}  # fmt: skip


def normalized_by(A, steps: int, divisor) -> torch.Tensor:
    """The Frobenius norms logged, in float64, when X is divided by ``divisor(X, norm)``
    after each step (``norm`` itself: the reference)."""
    A, X, norms = A.double().cpu(), torch.eye(A.shape[0], dtype=torch.float64), []
    for _ in range(steps):
        X = A @ X
        norms.append(torch.linalg.matrix_norm(X))
        X = X / divisor(X, norms[-1])
    return torch.stack(norms)


def by_largest_entry(A, steps: int) -> torch.Tensor:
    """The Frobenius norms logged when X is divided by its largest entry after each step."""
    return normalized_by(A, steps, lambda X, _: X.abs().max())


def added_to_norm(A, got: torch.Tensor) -> float | None:
    """The epsilon a log ``got`` says was added to each norm before X was divided by it
    (X / (norm + eps)), or None: read from step 2, confirmed on steps 1 to 3."""
    right = normalized_by(A, 2, lambda _, n: n)[-1] if len(got) >= 3 else None
    if right is None or not 0 < got[1] < right:
        return None
    eps = float(got[0] * (right / got[1] - 1))  # got[1] = right * norm_1 / (norm_1 + eps)
    shrunk = normalized_by(A, 3, lambda _, n: n + eps)
    return eps if torch.allclose(got[:3], shrunk, rtol=1e-4, atol=0) else None


def overflow_hint(name: str, A, result, bad: int) -> str:
    """The hint for ``result``, whose norm after step ``bad + 1`` is not finite: a log kept in
    float16, whose largest value is 65504, where the reference is finite and larger."""
    want = normalized_by(A, bad + 1, lambda _, n: n)[bad].item()
    largest = torch.finfo(torch.float16).max
    if math.isfinite(want) and want > largest:
        return (
            f"{name}: the norm after step {bad + 1} is {result[bad]}, the reference {want:.6g}: "
            f"more than float16's largest value, {largest:g}. The norms (or X) were kept in "
            "float16 (or a half log, .half()), which holds neither norms above 65504 nor, in "
            "full precision, below 6.1e-05. Keep X and the norms in A's dtype "
            "(torch.empty(steps, device=A.device, dtype=A.dtype), or a list of the norm tensors)"
        )
    return (
        f"{name}: the norm after step {bad + 1} is {result[bad]}: the product overflowed "
        "the dtype it was computed in (float32 above 3.4e38; float16, if X or A was cast "
        "with .half(), above 65504). Divide X by its norm after logging it (X = X / norm), so "
        "every step starts from a matrix of norm 1, and keep X in A's dtype"
    )


def which_norm(A, first) -> str:
    """Which other norm the first logged value is, said with its fix ("" when none)."""
    if first is None:
        return ""
    X = A.double()
    for what, norm in _OTHER_NORMS.items():
        if math.isclose(first, norm(X).item(), rel_tol=1e-4):
            return (
                f"That is {what}: the Frobenius norm is torch.linalg.matrix_norm(X) (ord "
                "'fro', the default), the square root of the sum of squares. "
            )
    return ""


def rounded_to(got: torch.Tensor, want: torch.Tensor) -> str:
    """The lower precision the logged norms were rounded to, said with its fix ("" when none):
    a log (or X) kept in bfloat16 or float16 holds every norm to 3 or 4 significant digits."""
    for dtype in (torch.bfloat16, torch.float16):
        held = bool((got == got.to(dtype).double()).all())  # every value is one of dtype's
        if held and torch.allclose(got, want, rtol=torch.finfo(dtype).eps, atol=0):
            return (
                f"Every norm is the reference rounded to {dtype}: the norms (or X) were kept in "
                f"{dtype}, which holds about {3 if dtype == torch.bfloat16 else 4} significant "
                "digits. Keep X and the norms in A's dtype (torch.empty(steps, device=A.device, "
                "dtype=A.dtype), or a list of the norm tensors). "
            )
    return ""


def wrong_norms_hint(name: str, A, got: torch.Tensor, want: torch.Tensor) -> str:
    """What is wrong with norms ``got`` (float64) that differ from the reference ``want``,
    said with its fix: the first step off is shown, not the worst (a wrong norm shows from
    step 1, a drift later)."""
    i = int(((got - want).abs() > 1e-3 * want.abs()).nonzero()[0])
    if bool((got == 0).all()):
        return (
            f"{name}: every norm is 0 (the reference after step 1 is {want[0].item():.6g}): X "
            "is all zeros after its first product. A product written into one of its own "
            "inputs (torch.mm(A, X, out=X)) overwrites X while it reads it. Make a new X each "
            "step, X = A @ X"
        )
    if len(got) > 1 and bool((got == got[-1]).all()):
        return (
            f"{name}: all {len(got)} norms are the same value, {got[-1].item():.6g} (the "
            f"reference after step 1 is {want[0].item():.6g}): the log holds one tensor, "
            "written over in place every step (matrix_norm(X, out=norm), norm.copy_(...), "
            "norm.fill_(...)). Log a new tensor each step, norms.append(torch.linalg."
            "matrix_norm(X)), or write into a slot of a log made once, log[i] = norm"
        )
    if torch.allclose(got * want, torch.ones_like(got), rtol=1e-3, atol=0):
        return (
            f"{name}: every norm is 1 / the reference (the norm after step 1 is "
            f"{got[0].item():.6g}, the reference {want[0].item():.6g}): the tensor you logged "
            "was changed in place after it was logged (norm.reciprocal_(), norm.pow_(-1)), and "
            "the log holds that tensor, not a copy. Take the reciprocal out of place: "
            "X = X / norm, or X * norm.reciprocal()"
        )
    if bool((got == got.round()).all()):
        return (
            f"{name}: every norm is a whole number (the norm after step 1 is "
            f"{got[0].item():g}, the reference {want[0].item():.6g}): the norms went "
            "through an integer tensor (torch.arange, dtype=torch.long). Log them in "
            "a float tensor, torch.empty(steps, device=A.device)"
        )
    if (eps := added_to_norm(A, got)) is not None:
        return (
            f"{name}: the norm after step 2 is {got[1].item():.6g}, the reference "
            f"{want[1].item():.6g}: X was divided by the norm plus about {eps:.2g} (norm + "
            "eps, against a division by zero), not by the norm. An eps that is not small "
            "against the norms shrinks X at every step, by eps / norm. Divide by the norm "
            "itself, X = X / norm (a nonzero X has a nonzero norm)"
        )
    if torch.allclose(got[:3], by_largest_entry(A, 3), rtol=1e-3, atol=0):
        return (
            f"{name}: the norm after step 2 is {got[1].item():.6g}, the reference "
            f"{want[1].item():.6g}: X was divided by its largest entry, not by the "
            "norm you logged. Divide by the Frobenius norm, X = X / ||X||_F"
        )
    return (
        f"{name}: the norm after step {i + 1} is {got[i].item():.6g}, the reference "
        f"{want[i].item():.6g} (step 1 is ||A||_F = {want[0].item():.6g}). "
        + (rounded_to(got, want) or which_norm(A, got[0].item() if i == 0 else None))
        + "Start from X = identity; each step X = A @ X, log ||X||_F, then "
        "X = X / ||X||_F"
    )


def autocast_hint(name: str, A, steps: int, asked, want: torch.Tensor, got=None) -> str | None:
    """The hint for products under a CUDA autocast whose dtype puts the norms beyond 1e-3:
    ``got``, the norms a real GPU gave; else, on a pretend GPU (where torch switched the
    autocast off), measured here with the CPU's autocast in that dtype."""
    lowered = [d for device, d in asked if device == "cuda" and d != torch.float32]
    if not lowered:
        return None
    dtype = lowered[0]
    if got is None:
        A, X, norms = A.detach().float().cpu(), torch.eye(A.shape[0]), []
        for _ in range(steps):
            with torch.autocast("cpu", dtype=dtype):
                X = A @ X
            norm = torch.linalg.matrix_norm(X.float())
            norms.append(norm.item())
            X = X.float() / norm
        got = torch.tensor(norms, dtype=torch.float64)
        where = (
            f"on a GPU they then run in {dtype}, and with the CPU's autocast in that dtype the "
            "norms of this A are off by more than the 1e-3 of the reference asked (this check's "
            "pretend GPU has no CUDA, so torch switched the autocast off)"
        )
    else:
        where = (
            f"they ran in {dtype}, and on this GPU the norms of this A are off by more than the "
            "1e-3 of the reference asked"
        )
    if ((got - want).abs() / want.abs()).max().item() <= 1e-3:
        return None
    return (
        f"{name} runs its products under torch.autocast('cuda', dtype={dtype}): {where}. Keep "
        "the products in A's float32 (a GPU's TF32 stays within 1e-3)"
    )
