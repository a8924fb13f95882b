"""Self-grading for the exercises: ``check(exercise_id, answer)``.

A learner writes an answer (usually a function) in an exercise notebook and
calls ``check("02.frobenius", my_function)``. The checker runs the answer
against tests of its *behaviour* (what was synchronized, what was
transferred, whether results agree), never against exact bits, and prints:

* ``PASS``: every check passed (the report says which checks ran: a check
  is evidence, not a proof of correctness);
* ``NOT ATTEMPTED YET``: the answer is still the stub (it raises
  ``NotImplementedError``);
* ``FAIL``: the first check that failed, with a hint the learner can act on;
* ``UNKNOWN EXERCISE``: no exercise has this id (a typo): the report names
  the closest id, if one is close, and lists the known ones.

It never raises into the notebook for a wrong or unfinished answer, nor for a mistyped
exercise id, nor for an answer that calls ``sys.exit()`` or is interrupted; every check has a
time limit (``TIME_LIMITS_S``), after which the learner's code is stopped and the report says
where it was. A report cites the learner's lines, never the checker's, nor an object's address.

The checkers live in ``d2lgpu.checks``, one module per exercise or chapter, and are found
through the table :data:`CHECKERS` (exercise id -> ``"module:function"``), imported when first
used: a checker does not import this module, so any module can be imported first. A checker is
``fn(answer, passed: list[str]) -> None``: it appends a line to ``passed`` for
each check that passed and raises :class:`CheckFailed` with a hint at the
first one that fails.
"""

from __future__ import annotations

import difflib
import importlib
import re
import threading
import traceback
from contextlib import contextmanager
from dataclasses import dataclass, field

from ._aliases import answer_graded
from ._validate import check_positive
from .checks._guard import AnswerTimedOut, time_limit
from .checks._kit_process import defaults_kept
from .checks._util import (
    PRETENDED_GPU,
    CheckFailed,
    NotAttempted,
    case_of,
    describe_frame,
    gpu_in_a_thread_note,
    in_learner_code,
    learner_frame,
    raised_where,
    refused_call_hint,
)

__all__ = [
    "CHECKERS",
    "TIME_LIMITS_S",
    "CheckFailed",
    "CheckResult",
    "check",
    "exercise_ids",
    "needs_answer",
]

# Exercise id -> the checker, as "module:function" (imported on first use).
CHECKERS: dict[str, str] = {
    "01.placement": "d2lgpu.checks.ch01_devices:check_placement",
    "02.time_fn": "d2lgpu.checks.ch02_time_fn:check_time_fn",
    "02.frobenius": "d2lgpu.checks.ch02_frobenius:check_frobenius",
    "02.concurrency": "d2lgpu.checks.ch02_concurrency:check_concurrency",
    "03.parameters": "d2lgpu.checks.ch03_parameters:check_parameters",
    "03.device_bug": "d2lgpu.checks.ch03_device_bug:check_device_bug",
    "04.amp": "d2lgpu.checks.ch04_amp:check_amp",
    "05.ddp": "d2lgpu.checks.ch05_ddp:check_ddp",
    "06.slowest_op": "d2lgpu.checks.ch06_performance:check_slowest_op",
    "07.relu_mul": "d2lgpu.checks.ch07_triton:check_relu_mul",
    "07.rms_norm": "d2lgpu.checks.ch07_triton:check_rms_norm",
    "08.overlap": "d2lgpu.checks.ch08_streams:check_overlap",
    "08.copy_back": "d2lgpu.checks.ch08_copy_back:check_copy_back",
    "09.pipeline": "d2lgpu.checks.ch09_model_parallel:check_pipeline",
    "09.checkpoint": "d2lgpu.checks.ch09_checkpointing:check_checkpoint",
    "09.one_f_one_b": "d2lgpu.checks.ch09_one_f_one_b:check_one_f_one_b",
    "09.tensor_parallel": "d2lgpu.checks.ch09_tensor_parallel:check_tensor_parallel",
    "10.bus_bandwidth": "d2lgpu.checks.ch10_inside_ddp:check_bus_bandwidth",
    "10.allreduce_grads": "d2lgpu.checks.ch10_inside_ddp:check_allreduce_grads",
    "10.overlap_ddp": "d2lgpu.checks.ch10_ddp_by_hand:check_overlap_ddp",
    "10.shard_optimizer": "d2lgpu.checks.ch10_ddp_by_hand:check_shard_optimizer",
    "11.memory": "d2lgpu.checks.ch11_planning:check_memory",
    "11.plan": "d2lgpu.checks.ch11_plan:check_plan",
}

# Seconds a check may run before the learner's code is stopped: room for a busy machine, and
# for 05.ddp's torchrun (twice, if a rank is killed by a signal).
DEFAULT_TIME_LIMIT_S = 120.0
TIME_LIMITS_S: dict[str, float] = {"05.ddp": 600.0}


@dataclass
class CheckResult:
    """The outcome of :func:`check`.

    ``status`` is ``"passed"``, ``"failed"``, ``"not attempted"`` or
    ``"unknown exercise"`` (no checker has this id; nothing was run).
    """

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
        elif self.status == "unknown exercise":
            lines = [f"UNKNOWN EXERCISE {self.exercise_id!r}: {self.hint}"]
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


def exercise_ids() -> list[str]:
    """Return the ids of all exercises that have a checker."""
    return sorted(CHECKERS)


def _checker(exercise_id: str):
    module, _, name = CHECKERS[exercise_id].partition(":")
    return getattr(importlib.import_module(module), name)


def check(
    exercise_id: str, answer, *, quiet: bool = False, time_limit_s: float | None = None
) -> CheckResult:
    """Check ``answer`` for ``exercise_id``, print the report and return it.

    ``time_limit_s`` replaces the exercise's time limit (:data:`TIME_LIMITS_S`).
    An ``exercise_id`` that no exercise has is reported, with the known ids,
    as a result whose status is ``"unknown exercise"``: a typo does not stop
    the notebook with a traceback.
    """
    if not (isinstance(exercise_id, str) and exercise_id in CHECKERS):
        return _report(
            CheckResult(exercise_id, "unknown exercise", hint=_unknown_hint(exercise_id)), quiet
        )
    if time_limit_s is None:
        time_limit_s = TIME_LIMITS_S.get(exercise_id, DEFAULT_TIME_LIMIT_S)
    check_positive("time_limit_s", time_limit_s, finite=True)
    checker = _checker(exercise_id)
    passed: list[str] = []
    status, hint = "passed", ""
    try:
        with _thread_errors() as in_threads, time_limit(time_limit_s) as limit, _rng_kept():
            try:  # graded first: the watch rebinds the answer's own names for torch's functions
                with answer_graded(answer), defaults_kept("your answer"):
                    checker(answer, passed)
            except AnswerTimedOut:
                raise
            except BaseException:
                if limit["raised"]:  # the answer caught our stop and went on: still a time-out
                    raise AnswerTimedOut(time_limit_s) from None
                raise
        if limit["raised"]:
            raise AnswerTimedOut(time_limit_s)
    except AnswerTimedOut as error:
        status, hint = "failed", _timed_out_hint(error, time_limit_s)
    except NotImplementedError as error:
        status, hint = _not_implemented(error)
    except CheckFailed as failure:
        status, hint = "failed", failure.hint
    except SystemExit as error:
        status, hint = "failed", _exit_hint(error)
    except KeyboardInterrupt as error:
        status, hint = "failed", _interrupt_hint(error)
    except Exception as error:  # the learner's code crashed: report, don't raise
        status, hint = "failed", refused_call_hint(error, answer) or _crash_hint(error)
    if status == "failed" and in_threads:  # the root cause, where a thread of its own died
        hint = f"{in_threads[0]}; then {hint}"
    hint = re.sub(r" at 0x[0-9a-fA-F]+(?=>)", "", hint)  # `<f at 0x7f...>`: `<f>`, every run
    return _report(CheckResult(exercise_id, status, passed, hint), quiet)


@contextmanager
def _thread_errors():
    """The errors threads started in the check died of, said with the learner's line (and
    still printed as Python prints them)."""
    found: list[str] = []
    before = threading.excepthook

    def hook(args):
        if args.exc_value is not None and not isinstance(args.exc_value, SystemExit):
            what = f"{args.exc_type.__name__}: {args.exc_value}"[:400]
            gpu = ("CUDA" in what or "NVIDIA" in what) * PRETENDED_GPU
            found.append(
                f"a thread your code started raised {what}{raised_where(args.exc_value)}{gpu}"
            )
        before(args)

    threading.excepthook = hook
    try:
        yield found
    finally:
        threading.excepthook = before


def _rng_kept():
    """The learner's random generator as it was after the check: checkers seed and draw from
    it, and so may the answer they call; a check must not change what the notebook draws next."""
    import torch

    return torch.random.fork_rng(devices=[])


def _report(result: CheckResult, quiet: bool) -> CheckResult:
    if not quiet:
        print(result)
        result.printed = True
    return result


def _unknown_hint(exercise_id) -> str:
    known = exercise_ids()
    close = (
        difflib.get_close_matches(exercise_id, known, n=1) if isinstance(exercise_id, str) else []
    )
    guess = f"did you mean {close[0]!r}? Known ids" if close else "known ids"
    return f"no exercise has this id; {guess}: {', '.join(known)}"


def _timed_out_hint(error: AnswerTimedOut, seconds: float) -> str:
    return (
        f"your answer ran for more than {seconds:g} s and was stopped{raised_where(error)}: look "
        "for a loop that never ends (a `while` whose condition never changes, a counter "
        "that is never increased) or a wait that never returns"
    )


def _not_implemented(error: NotImplementedError) -> tuple[str, str]:
    # The stub is a line of the learner's that raises NotImplementedError; one that torch
    # raises (an operator missing for the meta device) is a crash of their code.
    frames = traceback.extract_tb(error.__traceback__)
    stub = bool(frames) and in_learner_code(frames[-1].filename)
    stub = stub and "NotImplementedError" in (frames[-1].line or "")
    # The stub's own words, or none: one with words of the learner's is a refusal they wrote.
    stub = stub and str(error) in ("your code here", "")
    if isinstance(error, NotAttempted) or stub:
        return (
            "not attempted",
            "the answer still raises NotImplementedError: replace the stub with your code",
        )
    return "failed", _crash_hint(error)


def _exit_hint(error: SystemExit) -> str:
    return (
        f"your code called sys.exit({'' if error.code is None else repr(error.code)})"
        f"{raised_where(error)}, which would stop the notebook's kernel: return a value (or raise "
        "an exception) instead of exiting"
    )


def _interrupt_hint(error: KeyboardInterrupt) -> str:
    return (
        f"the check was interrupted (KeyboardInterrupt){raised_where(error)}: if you pressed stop, "
        "run the check again; if your code raises KeyboardInterrupt, let it return instead"
    )


def _crash_hint(error: BaseException) -> str:
    # CPython names where the limit tripped (" while calling a Python object"), not the answer
    words = "maximum recursion depth exceeded" if isinstance(error, RecursionError) else error
    what = f"{type(error).__name__}: {words}"
    frame = learner_frame(error.__traceback__)
    if frame is not None:
        return (
            f"{case_of(error)}your code raised {what} ({describe_frame(frame)})"
            f"{gpu_in_a_thread_note(error)}"
        )
    return (
        f"the check could not use what your answer returned or did ({what}): compare what "
        "it returns, and the types of its values, with what the exercise asks for"
    )


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
