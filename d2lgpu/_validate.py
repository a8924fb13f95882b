"""Checks of the package's own arguments: one wording and one exception type for all.

What it is for: a bad count or size passed to a d2lgpu helper raises ``ValueError`` with
``"<name> must be <what is allowed>, got <value>"``, the same sentence everywhere.

What it is not: the judge of a learner's answers; the exercise checkers in
:mod:`d2lgpu.checks` do that, with hints.
"""

from __future__ import annotations

import math
import numbers

__all__ = ["check_int", "check_nonnegative", "check_positive", "check_seconds"]


def check_int(
    name: str, value, *, minimum: int | None = None, allow_none: bool = False, what: str = "an int"
):
    """Return ``value`` if it is an int (not a bool) of at least ``minimum``, else raise.

    NumPy integers count as ints. With ``allow_none``, ``None`` passes too. ``what`` names
    the kind of int in the message (``"a GPU index"``: "i must be a GPU index >= 0, got -1").
    """
    if allow_none and value is None:
        return value
    is_int = isinstance(value, numbers.Integral) and not isinstance(value, bool)
    if not is_int or (minimum is not None and value < minimum):
        allowed = what + ("" if minimum is None else f" >= {minimum}")
        allowed += " or None" if allow_none else ""
        raise ValueError(f"{name} must be {allowed}, got {value!r}")
    return value


def _is_number(value, finite: bool) -> bool:
    is_number = isinstance(value, numbers.Real) and not isinstance(value, bool)
    return is_number and not math.isnan(value) and (math.isfinite(value) or not finite)


def check_positive(name: str, value, *, finite: bool = False):
    """Return ``value`` if it is a real number > 0 (not a bool, not NaN), else raise.

    With ``finite``, infinity is refused too ("must be a finite number > 0").
    """
    if not _is_number(value, finite) or not value > 0:
        raise ValueError(f"{name} must be a {'finite ' if finite else ''}number > 0, got {value!r}")
    return value


def check_nonnegative(name: str, value, *, what: str = "number"):
    """Return ``value`` if it is a finite real number >= 0 (not a bool, not NaN), else raise.

    ``what`` names the kind of number in the message (``"number of seconds"``).
    """
    if not _is_number(value, finite=True) or not value >= 0:
        raise ValueError(f"{name} must be a finite {what} >= 0, got {value!r}")
    return value


def check_seconds(name: str, value) -> float:
    """``value`` as a float if it is a finite number of seconds >= 0, else raise."""
    return float(check_nonnegative(name, value, what="number of seconds"))
