"""Measuring on a machine shared with other programs: the fastest of a few tries.

Another program can only add time to a measurement, never take it away, so when a
lesson's claim about two timings fails, measuring again and keeping the fastest of each
tells a busy machine from a false claim: a real slowdown shows in every try.

What it is for: :func:`fastest_of`, around a lesson's own measurement and its claim.

What it is not: a way to make a claim pass. The caller still asserts its claim on what
is kept, and at most ``tries`` measurements are made.
"""

from __future__ import annotations

import numbers

from ._validate import check_int
from .timing import BenchmarkResult

__all__ = ["fastest_of"]


def fastest_of(measure, holds=None, *, tries: int = 3):
    """Measure up to ``tries`` times, keeping the fastest of each entry; stop once ``holds``.

    Another program on the machine can only add time to a measurement, never take it away,
    so the fastest of a few tries is the least disturbed one. ``measure()`` makes one try
    and returns seconds (a number), a :class:`BenchmarkResult`, or a dict, list or tuple of
    these, nested as deep as needed. Each try is merged into what is kept, entry by entry:
    numbers by ``min``, results by the smaller ``.min`` (their fastest sample), so a result
    is kept whole, with its own median.

    ``holds(kept)`` says whether the lesson's claim holds; it is asked after every try but
    the last, and the tries stop as soon as it says True (``holds=None``: all ``tries``
    run). Returns what is kept. The caller still asserts its claim on it: a real slowdown
    shows in every try. What the first try returns is checked at once, so a wrong type
    fails the same way on a quiet machine as on a busy one.
    """
    if not callable(measure):
        raise TypeError(f"measure must be a function that makes one try, not {measure!r}")
    if holds is not None and not callable(holds):
        raise TypeError(f"holds must be None or a function of what is kept, not {holds!r}")
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
