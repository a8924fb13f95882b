"""Self-grading for the exercises: ``check(exercise_id, answer)``.

A learner writes an answer (usually a function) in an exercise notebook and
calls ``check("02.frobenius", my_function)``. The checker runs the answer
against tests of its *behaviour* (what was synchronized, what was
transferred, whether results agree), never against exact bits, and prints:

* ``PASS``: every check passed (the report says which checks ran: a check
  is evidence, not a proof of correctness);
* ``NOT ATTEMPTED YET``: the answer is still the stub (it raises
  ``NotImplementedError``);
* ``FAIL``: the first check that failed, with a hint the learner can act on.

It never raises into the notebook for a wrong or unfinished answer. Checkers
are registered with :func:`checker`; they raise :class:`CheckFailed` with a
hint, and return the list of checks that passed.

This module holds the machinery; the exercises' checkers live in
``d2lgpu.checks`` and are registered when it is imported.
"""

from __future__ import annotations

import importlib
import traceback
from contextlib import contextmanager
from dataclasses import dataclass, field

__all__ = ["CheckFailed", "CheckResult", "checker", "check", "exercise_ids", "needs_answer"]

_CHECKERS: dict = {}


class CheckFailed(AssertionError):
    """Raised by a checker: ``hint`` tells the learner what to change."""

    def __init__(self, hint: str):
        super().__init__(hint)
        self.hint = hint


@dataclass
class CheckResult:
    """The outcome of :func:`check`; ``status`` is passed, failed or not attempted."""

    exercise_id: str
    status: str
    passed: list[str] = field(default_factory=list)
    hint: str = ""
    printed: bool = field(default=False, repr=False, compare=False)

    @property
    def ok(self) -> bool:
        return self.status == "passed"

    def __str__(self) -> str:
        if self.status == "passed":
            lines = [f"PASS {self.exercise_id}: these checks passed:"]
            lines += [f"  - {p}" for p in self.passed]
        elif self.status == "not attempted":
            lines = [f"NOT ATTEMPTED YET {self.exercise_id}: {self.hint}"]
        else:
            lines = [f"FAIL {self.exercise_id}: {self.hint}"]
            if self.passed:
                lines.append("  checks that passed before this one:")
                lines += [f"  - {p}" for p in self.passed]
        return "\n".join(lines)

    def _repr_pretty_(self, printer, cycle):  # IPython shows the report, not a repr
        printer.text(str(self))

    def _ipython_display_(self):
        # A notebook cell ending in check(...) displays the result: check() has
        # printed the report already, so show it only if it has not.
        if not self.printed:
            print(self)


def checker(exercise_id: str):
    """Register ``fn(answer, passed: list[str]) -> None`` as the checker of an exercise.

    The checker appends a line to ``passed`` for each check that passed and
    raises :class:`CheckFailed` with a hint at the first one that fails.
    """

    def register(fn):
        if exercise_id in _CHECKERS:
            raise ValueError(f"exercise_id {exercise_id!r} already has a checker")
        _CHECKERS[exercise_id] = fn
        return fn

    return register


def exercise_ids() -> list[str]:
    """Return the ids of all exercises that have a checker."""
    _load_checks()
    return sorted(_CHECKERS)


def check(exercise_id: str, answer, *, quiet: bool = False) -> CheckResult:
    """Check ``answer`` for ``exercise_id``, print the report and return it."""
    _load_checks()
    if exercise_id not in _CHECKERS:
        raise ValueError(
            f"exercise_id {exercise_id!r} is unknown; allowed: {', '.join(sorted(_CHECKERS))}"
        )
    passed: list[str] = []
    try:
        _CHECKERS[exercise_id](answer, passed)
        result = CheckResult(exercise_id, "passed", passed)
    except NotImplementedError:
        result = CheckResult(
            exercise_id,
            "not attempted",
            passed,
            "the answer still raises NotImplementedError: replace the stub with your code",
        )
    except CheckFailed as failure:
        result = CheckResult(exercise_id, "failed", passed, failure.hint)
    except Exception as error:  # the learner's code crashed: report, don't raise
        where = traceback.extract_tb(error.__traceback__)[-1]
        result = CheckResult(
            exercise_id,
            "failed",
            passed,
            f"your code raised {type(error).__name__}: {error} "
            f"(line {where.lineno} of {where.name})",
        )
    if not quiet:
        print(result)
        result.printed = True
    return result


@contextmanager
def needs_answer(what: str = "your answer above"):
    """Run a block that uses the learner's answer; while it is still a stub, say so.

    >>> with needs_answer("time_fn"):
    ...     seconds = time_fn(work, sync, clock, repeats=5)

    A ``NotImplementedError`` raised inside the block is reported as not
    attempted yet and the rest of the block is skipped, so an exercise
    notebook runs top to bottom before the learner has written anything.
    Any other exception propagates as usual.
    """
    try:
        yield
    except NotImplementedError:
        print(f"NOT ATTEMPTED YET: this cell uses {what}; write it, then run this cell again")


def _load_checks() -> None:
    # The exercises' checkers register themselves on import.
    try:
        importlib.import_module(".checks", __package__)
    except ModuleNotFoundError as error:
        if error.name != f"{__package__}.checks":
            raise
