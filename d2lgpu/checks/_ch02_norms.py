"""``02.frobenius``'s wrong norms: the values a learner's log holds when it took another of
X's norms, or divided X by something other than its norm, each named with its fix."""

from __future__ import annotations

import math

import torch

__all__ = ["by_largest_entry", "rounded_to", "which_norm"]


# Norms a learner may take for the Frobenius norm, of X = A after step 1.
_OTHER_NORMS = {
    "X's spectral norm (ord=2, its largest singular value)": lambda X: torch.linalg.matrix_norm(X, 2),
    "X's nuclear norm (ord='nuc')": lambda X: torch.linalg.matrix_norm(X, "nuc"),
    "X's Frobenius norm squared": lambda X: torch.linalg.matrix_norm(X) ** 2,
    "X's largest entry in absolute value": lambda X: X.abs().max(),
    "the sum of X's entries in absolute value": lambda X: X.abs().sum(),
}  # fmt: skip


def by_largest_entry(A, steps: int) -> torch.Tensor:
    """The Frobenius norms logged when X is divided by its largest entry after each step."""
    A, X, norms = A.double().cpu(), torch.eye(A.shape[0], dtype=torch.float64), []
    for _ in range(steps):
        X = A @ X
        norms.append(torch.linalg.matrix_norm(X))
        X = X / X.abs().max()
    return torch.stack(norms)


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
