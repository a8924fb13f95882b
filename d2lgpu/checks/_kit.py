"""The checker kit: what checkers repeat, written once, so that a checker holds only its cases, rules and hints.

* **Running cases.** :func:`call_answer` calls the answer and turns the errors it is
  known to make into hints (:class:`KnownError`); any other error goes on to
  ``d2lgpu.grading``, which reports it with the learner's line, under the exercise's
  time limit (:mod:`._guard`). :func:`run_cases` runs one case after another.
* **Comparing tensors.** :class:`Tolerance` names a tolerance; :func:`close` compares
  shape and values within it, :func:`max_diff` measures a gap, :func:`mismatch` says
  which tensor differs, by how much, against which tolerance, and :func:`first_close`
  finds which of several candidates a result is (a result in the wrong place).
* **Hints from findings.** :func:`first_hint` raises the hint of the first finding that
  holds, in the order given; :func:`names_both` joins two mistakes that the result
  cannot tell apart into one hint.
* **Watching calls.** :func:`patched` replaces attributes for a block and puts them back;
  :func:`calls_to` records every call of a function or method while the original still
  runs.
* **Counting copies.** :func:`copies_of` records every copy of chosen tensors to
  another place (``.cpu()``, ``.to(device)``, ``.item()``, ...): a cost the values never show.
* **What stays alive.** :func:`alive_after_collecting` reads weak references, with a full
  garbage collection only where one is still alive; :func:`kept_from_earlier` uses it.
  :func:`tensors_alive` notes every tensor of the process, and :func:`made_since` finds
  those made after it and still kept, wherever they are (an attribute, a global, a closure).
* **Rank jobs** are :mod:`._ranks`: a job on gloo ranks through :mod:`d2lgpu.ranks`.
  :class:`Deadlock` tells, from the collectives each rank has started, that ranks wait
  for each other in collectives that differ, so that the run ends at once, not at its
  time-out.

What it is not: a checker. It imports nothing from the chapters' checkers.
"""

from __future__ import annotations

import functools
import gc
import time
import weakref
from collections.abc import Callable, Iterable
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple

import torch

from .._aliases import aliases_rebound, graded_answer
from ._util import CheckFailed

__all__ = [
    "KnownError",
    "call_answer",
    "run_cases",
    "Tolerance",
    "close",
    "max_diff",
    "mismatch",
    "first_close",
    "first_hint",
    "names_both",
    "patched",
    "calls_to",
    "kept_from_earlier",
    "alive_after_collecting",
    "tensors_alive",
    "made_since",
    "copies_of",
    "Deadlock",
]


# --- running cases ----------------------------------------------------------------------------


class KnownError(NamedTuple):
    """An error the answer is known to make: of type ``kind``, with one of ``words`` in its
    message; ``hint`` is the hint, or a function of the error that returns it."""

    kind: type[BaseException]
    words: tuple[str, ...]
    hint: str | Callable[[BaseException], str]


def call_answer(answer, *args, known: Iterable[KnownError] = (), **kwargs):
    """``answer(*args, **kwargs)``; an error matching one of ``known`` (the first that
    matches) becomes :class:`CheckFailed` with its hint, any other is raised as it is."""
    try:
        return answer(*args, **kwargs)
    except CheckFailed:
        raise
    except Exception as error:
        for rule in known:
            if isinstance(error, rule.kind) and any(w in str(error) for w in rule.words):
                hint = rule.hint if isinstance(rule.hint, str) else rule.hint(error)
                raise CheckFailed(hint) from None
        raise


def run_cases(cases: Iterable[tuple], check_case: Callable[..., Any]) -> list:
    """``check_case(*case)`` for each case, in order; what each returned. The first case
    that fails ends the run with its hint."""
    return [check_case(*case) for case in cases]


# --- comparing tensors ------------------------------------------------------------------------


class Tolerance(NamedTuple):
    """A named tolerance, as ``torch.allclose`` takes it; ``str()`` is ``rtol 0.0001, atol 1e-06``."""

    rtol: float
    atol: float

    def __str__(self) -> str:
        return f"rtol {self.rtol}, atol {self.atol}"


def close(got, want: torch.Tensor, tol: Tolerance | None = None) -> bool:
    """Whether ``got`` is a tensor of ``want``'s shape whose values are within ``tol``
    (``torch.allclose``'s defaults when None)."""
    if not isinstance(got, torch.Tensor) or got.shape != want.shape:
        return False
    if tol is None:
        return torch.allclose(got, want)
    return torch.allclose(got, want, rtol=tol.rtol, atol=tol.atol)


def max_diff(got: torch.Tensor, want: torch.Tensor) -> float:
    """The largest absolute difference between two tensors of one shape."""
    return (got - want).abs().max().item()


def mismatch(name: str, got, want: torch.Tensor, tol: Tolerance) -> str | None:
    """None when ``got`` is close to ``want``; else what differs, by how much, against what."""
    if close(got, want, tol):
        return None
    if not isinstance(got, torch.Tensor) or got.shape != want.shape:
        shape = tuple(got.shape) if isinstance(got, torch.Tensor) else type(got).__name__
        return f"{name} is {shape}, expected shape {tuple(want.shape)}"
    return f"{name} differs by up to {max_diff(got, want):.3g} (tolerance: {tol})"


def first_close(got, candidates: Iterable[torch.Tensor], tol: Tolerance | None = None):
    """The index of the first candidate ``got`` is close to, or None."""
    return next((i for i, c in enumerate(candidates) if close(got, c, tol)), None)


# --- hints from findings ----------------------------------------------------------------------


def first_hint(findings: Iterable[tuple[bool, str | Callable[[], str]]]) -> None:
    """Raise :class:`CheckFailed` with the hint of the first finding that holds.

    ``findings`` are ``(holds, hint)`` in the order the checker asks them (the most
    specific mistake first); a hint may be a function, called only if its finding holds.
    """
    for holds, hint in findings:
        if holds:
            raise CheckFailed(hint if isinstance(hint, str) else hint())


def names_both(first: str, second: str) -> str:
    """One hint for two mistakes the result cannot tell apart: ``first; and second``."""
    return f"{first}; and {second}"


# --- watching calls ---------------------------------------------------------------------------


@contextmanager
def patched(*changes: tuple[Any, str, Any]):
    """Set each ``(owner, name, value)`` for the block; put the originals back after it,
    in the reverse order, however the block ends. The graded answer's own names for them
    (``from torch.cuda import synchronize``) meet the values too (:mod:`d2lgpu._aliases`)."""
    saved = [(owner, name, getattr(owner, name)) for owner, name, _ in changes]
    for owner, name, value in changes:
        setattr(owner, name, value)
    try:
        with aliases_rebound(graded_answer(), saved):
            yield
    finally:
        for owner, name, original in reversed(saved):
            setattr(owner, name, original)


@contextmanager
def calls_to(owner, name: str, note: Callable[..., Any] | None = None):
    """Record the calls of ``owner.name`` in the yielded list while the original runs.

    Each entry is ``note(*args, **kwargs)`` (a method's ``self`` included), or, without
    ``note``, what the call returned.
    """
    original = getattr(owner, name)
    calls: list = []

    @functools.wraps(original)
    def recorded(*args, **kwargs):
        if note is not None:
            calls.append(note(*args, **kwargs))
            return original(*args, **kwargs)
        calls.append(original(*args, **kwargs))
        return calls[-1]

    with patched((owner, name, recorded)):
        yield calls


# --- counting copies --------------------------------------------------------------------------

# Tensor methods that copy a tensor to another place (the host, another device).
COPY_METHODS = frozenset({"cpu", "cuda", "numpy", "tolist", "item", "to"})


def _names_a_device(args, kwargs) -> bool:
    """Whether ``Tensor.to``'s arguments name a place (a device, a string, a tensor), not
    only a dtype."""
    given = [*args, kwargs.get("device")]
    return any(isinstance(a, str | torch.device | torch.Tensor) for a in given)


@contextmanager
def copies_of(name_of: Callable[[torch.Tensor], str | None]):
    """Record, in the yielded list, ``(name, ".cpu()")`` for every copy made in the block of a
    tensor that ``name_of`` names (None: not watched): ``.cpu()``, ``.cuda()``, ``.numpy()``,
    ``.tolist()``, ``.item()``, and ``.to()`` naming a device."""
    from torch.overrides import TorchFunctionMode

    copies: list[tuple[str, str]] = []

    class _Copies(TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            kwargs = kwargs or {}
            method = getattr(func, "__name__", "")
            if method in COPY_METHODS and args and isinstance(args[0], torch.Tensor):
                if method != "to" or _names_a_device(args[1:], kwargs):
                    name = name_of(args[0])
                    if name is not None:
                        copies.append((name, f".{method}()"))
            return func(*args, **kwargs)

    with _Copies():
        yield copies


def kept_from_earlier(steps: list[list]) -> int:
    """How many tensors, of weak references taken at each step (``steps[k]``), are still alive
    after the last step without being one of its own: what the answer kept from step to step."""

    def count() -> int:
        last = {id(t) for t in (ref() for ref in steps[-1]) if t is not None} if steps else set()
        alive = (ref() for refs in steps[:-1] for ref in refs)
        return sum(1 for t in alive if t is not None and id(t) not in last)

    return alive_after_collecting(count)


def alive_after_collecting(look):
    """``look()``, what it finds alive through weak references; where it finds anything,
    asked again after a full garbage collection (cycles no longer referred to go). The
    collection, slow in a large process and slower in a forked one, is made only then."""
    found = look()
    if found:
        gc.collect()
        found = look()
    return found


def _tensors():
    # type(), not isinstance(): an object's __class__ may warn when read (a deprecated alias)
    return (t for t in gc.get_objects() if issubclass(type(t), torch.Tensor))


def tensors_alive() -> dict[int, weakref.ref]:
    """Every tensor alive in this process now, as weak references by ``id()``: those the
    garbage collector tracks, less any frozen (a rank job's heap, :mod:`._ranks`)."""
    return {id(t): weakref.ref(t) for t in _tensors()}


def made_since(before: dict[int, weakref.ref], leave_out: Iterable[torch.Tensor] = ()):
    """The tensors alive now that were not at ``before`` (:func:`tensors_alive`) and share
    no storage with ``leave_out``: what was made since and kept, wherever it is kept. No
    garbage collection first (in a forked rank it copies the whole heap): a tensor in a cycle
    that nothing refers to any more, not yet collected, counts as kept."""
    storages = {t.untyped_storage().data_ptr() for t in leave_out}
    made = []
    for t in _tensors():
        if id(t) in before and before[id(t)]() is t:
            continue
        try:
            storage = t.untyped_storage().data_ptr()
        except (RuntimeError, NotImplementedError):  # a tensor without storage (a sparse one)
            continue
        if storage not in storages:
            made.append(t)
    return made


# --- rank jobs ----------------------------------------------------------------------------------


class Deadlock:
    """``stuck`` for :func:`d2lgpu.ranks.rank_replies`: True once the ranks' collectives
    (``rank0``, ``rank1``, ... in ``folder``: a line per call, written as it starts) differ
    at a call that every rank has reached, and no rank has started another for ``quiet_s``.
    Such ranks wait for each other in collectives that do not match until their time-out
    (a broadcast on the owner only, calls in another order on each rank); ranks that are
    merely slower than the others never differ at a call they have all reached."""

    def __init__(self, folder, world: int, quiet_s: float = 2.0):
        self.paths = [Path(folder) / f"rank{rank}" for rank in range(world)]
        self.quiet_s = quiet_s
        self._seen: list[list[str]] | None = None
        self._since = time.monotonic()

    def __call__(self) -> bool:
        logs = [p.read_text().splitlines() if p.exists() else [] for p in self.paths]
        if logs != self._seen:
            self._seen, self._since = logs, time.monotonic()
            return False
        reached = min(len(log) for log in logs)
        differ = any(len({log[i] for log in logs}) > 1 for i in range(reached))
        return differ and time.monotonic() - self._since >= self.quiet_s
