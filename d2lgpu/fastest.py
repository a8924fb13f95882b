"""Measuring on a machine shared with other programs: the fastest of a few tries.

Another program can only add time to a measurement, never take it away, so when a
lesson's claim about two timings fails, measuring again and keeping the fastest of each
tells a busy machine from a false claim: a real slowdown shows in every try.

What it is for: :func:`fastest_of`, around a lesson's own measurement, and
:func:`claim`, which states the lesson's claim on what was kept.

What it is not: a way to make a claim pass. :func:`claim` fails in strict mode (CI, the
test suite, ``D2LGPU_STRICT=1``) exactly as an ``assert`` would, and at most ``tries``
measurements are made (unless given, 3 on a learner's machine and 6 in strict mode, where
a busy CI machine must not fail a run that a quiet window would pass). On a learner's
machine, a claim that still does not hold says what it measured and lets Run All go on: a
busy laptop must not look like broken code.
"""

from __future__ import annotations

import numbers
import os

from ._validate import check_int
from .timing import BenchmarkResult

__all__ = ["claim", "fastest_of", "strict"]

STRICT_ENV_VAR = "D2LGPU_STRICT"
TRIES = 3  # a learner's machine: three tries, and Run All goes on
STRICT_TRIES = 6  # strict mode, where a claim that fails fails the run


def fastest_of(measure, holds=None, *, tries: int | None = None):
    """Measure up to ``tries`` times, keeping the fastest of each entry; stop once ``holds``.

    Another program on the machine can only add time to a measurement, never take it away,
    so the fastest of a few tries is the least disturbed one. ``measure()`` makes one try
    and returns seconds (a number), a :class:`BenchmarkResult`, or a dict, list or tuple of
    these, nested as deep as needed. Each try is merged into what is kept, entry by entry:
    numbers by ``min``, results by the smaller ``.min`` (their fastest sample), so a result
    is kept whole, with its own median.

    ``holds(kept)`` says whether the lesson's claim holds; it is asked after every try but
    the last, and the tries stop as soon as it says True (``holds=None``: all ``tries``
    run). ``tries=None`` means :data:`TRIES`, or :data:`STRICT_TRIES` in strict mode when
    ``holds`` is given: there a claim that fails fails the run, and the tries stop as soon
    as it holds, so a quiet machine pays nothing for them. Returns what is kept. The caller
    still asserts its claim on it: a real slowdown shows in every try. What the first try
    returns is checked at once, so a wrong type fails the same way on a quiet machine as on
    a busy one.
    """
    if not callable(measure):
        raise TypeError(f"measure must be a function that makes one try, not {measure!r}")
    if holds is not None and not callable(holds):
        raise TypeError(f"holds must be None or a function of what is kept, not {holds!r}")
    if tries is None:
        tries = STRICT_TRIES if holds is not None and strict() else TRIES
    check_int("tries", tries, minimum=1)
    kept = measure()
    _check_measured(kept)
    for _ in range(tries - 1):
        if holds is not None and holds(kept):
            break
        kept = _keep_fastest(kept, measure())
    return kept


def _is_number(x) -> bool:
    return isinstance(x, numbers.Real) and not isinstance(x, bool)


def _check_measured(x) -> None:
    """Raise TypeError unless ``x`` is what :func:`fastest_of` can merge."""
    if isinstance(x, dict):
        for value in x.values():
            _check_measured(value)
    elif isinstance(x, list | tuple):
        for value in x:
            _check_measured(value)
    elif not (_is_number(x) or isinstance(x, BenchmarkResult)):
        raise TypeError(
            "measure() must return seconds (a number), a BenchmarkResult, or dicts, lists or "
            f"tuples of them; it returned a {type(x).__name__}: {x!r}"
        )


def _keep_fastest(kept, new):
    if isinstance(kept, dict) and isinstance(new, dict) and kept.keys() == new.keys():
        return {key: _keep_fastest(kept[key], new[key]) for key in kept}
    if isinstance(kept, list | tuple) and type(new) is type(kept) and len(new) == len(kept):
        return type(kept)(_keep_fastest(a, b) for a, b in zip(kept, new, strict=True))
    if isinstance(kept, BenchmarkResult) and isinstance(new, BenchmarkResult):
        return new if new.min < kept.min else kept
    if _is_number(kept) and _is_number(new):
        return min(kept, new)
    _check_measured(new)
    raise TypeError(
        "measure() must return the same shape each try (the same keys, lengths and types); "
        f"got {kept!r}, then {new!r}"
    )


def strict() -> bool:
    """Whether a claim that does not hold raises: ``D2LGPU_STRICT`` if set, else CI or pytest.

    ``D2LGPU_STRICT=1`` forces strict mode and ``0`` learner mode; any other value is an
    error that names the variable. Unset, it is strict when ``CI`` or
    ``PYTEST_CURRENT_TEST`` is set (nbval runs notebooks under pytest).
    """
    value = os.environ.get(STRICT_ENV_VAR)
    if value is None or value.strip() == "":
        return bool(os.environ.get("CI")) or "PYTEST_CURRENT_TEST" in os.environ
    if value.strip() not in ("0", "1"):
        raise ValueError(
            f"{STRICT_ENV_VAR} must be 1 (claims raise) or 0 (they print), not {value!r}"
        )
    return value.strip() == "1"


def claim(holds, *, expected: str, measured: str) -> None:
    """State a lesson's claim about a measurement, which ``holds`` or not.

    ``expected`` says what the lesson claims ("the .item() loop is slower") and
    ``measured`` what this run measured ("2.1 us against 2.3 us per step"). When the claim
    does not hold, strict mode (:func:`strict`) raises ``AssertionError`` with both; a
    learner's run prints them, says the machine was probably too busy to show the effect
    and where the cell's stored output or GPU reference shows it, and returns, so Run All
    goes on. It returns None either way: a cell that ends with a claim shows nothing more.
    """
    if not isinstance(holds, bool | numbers.Integral):
        raise TypeError(f"holds must be a bool (the claim's test), not {type(holds).__name__}")
    for name, text in (("expected", expected), ("measured", measured)):
        if not isinstance(text, str) or not text.strip():
            raise ValueError(f"{name} must be a non-empty string saying what the claim {name}")
    if holds:
        return
    if strict():
        raise AssertionError(f"expected {expected}; measured {measured}")
    print(
        f"Not shown this time: expected {expected}; measured {measured}.\n"
        "This machine was probably too busy to show the effect (other programs add time "
        "to a measurement). The output stored under this cell, and on a GPU its reference, "
        "shows it; Run All goes on."
    )
