"""The answer being graded, and its names bound to what a checker replaces.

A checker watches a call by replacing it where it lives (``torch.cuda.synchronize``,
``dist.all_reduce``, ``torch.cuda.Stream`` in the simulated GPU). An answer that imported the
name itself (``from torch.cuda import synchronize``) holds the original, and its call would
go unseen, or reach a GPU that is not there. :func:`aliases_rebound` binds such names of the
answer's module to the replacement for a block, and back after it. :func:`answer_graded`
says which answer :func:`d2lgpu.grading.check` is grading, so that every replacement made while
it runs (:func:`graded_answer`) rebinds that answer's names, whichever checker made it.

What it is not: the replacing itself (:func:`d2lgpu.checks._kit.patched`, the simulated GPU's
``torch.cuda`` in :mod:`d2lgpu._stream_mode`, the collectives' watch).
"""

from __future__ import annotations

import functools
import inspect
from contextlib import contextmanager

__all__ = ["aliases_rebound", "answer_function", "answer_globals", "answer_graded", "graded_answer"]

_GRADED: list = []  # the answers being graded, innermost last


@contextmanager
def answer_graded(answer):
    """For the block, ``answer`` is the one :func:`graded_answer` names."""
    _GRADED.append(answer)
    try:
        yield
    finally:
        _GRADED.pop()


def graded_answer():
    """The answer :func:`d2lgpu.grading.check` is grading now, or None outside it."""
    return _GRADED[-1] if _GRADED else None


def answer_function(answer):
    """The Python function an answer runs: the answer itself, the function a
    ``functools.partial`` wraps (however deep), or a callable object's ``__call__``; None
    where there is none (a builtin). Its ``__globals__`` are the answer's module."""
    fn = answer
    while isinstance(fn, functools.partial):
        fn = fn.func
    if not hasattr(fn, "__code__"):
        try:
            fn = type(fn).__call__
        except AttributeError:
            return None
    fn = _unwrapped(fn)
    return fn if hasattr(fn, "__code__") else None


def _unwrapped(fn):
    """The function a decorator that keeps ``__wrapped__`` wraps (``@torch.no_grad()``,
    ``functools.wraps``), whose ``__globals__`` are its own module's, not the decorator's."""
    try:
        return inspect.unwrap(fn)
    except ValueError:  # a chain of __wrapped__ that loops
        return fn


def answer_globals(answer) -> list[dict]:
    """The module namespaces an answer reads its global names from: its function's
    (:func:`answer_function`), or a class's: those of the functions its classes from its own
    module define (methods, static and class methods, properties); never torch's."""
    if isinstance(answer, type):
        own = [k for k in answer.__mro__ if k.__module__ == answer.__module__]
        found = [
            _unwrapped(getattr(v, "__func__", getattr(v, "fget", v)))
            for k in own
            for v in vars(k).values()
        ]
    else:
        found = [answer_function(answer)]
    spaces: dict[int, dict] = {}
    for fn in found:
        names = getattr(fn, "__globals__", None)
        if isinstance(names, dict) and _learners(names):
            spaces[id(names)] = names
    return list(spaces.values())


def _learners(names: dict) -> bool:
    """Not torch's own modules (an answer that is a torch function): those stay as they are."""
    return str(names.get("__name__", "")).partition(".")[0] != "torch"


def _partial_of(value, original) -> bool:
    return isinstance(value, functools.partial) and value.func is original


@contextmanager
def aliases_rebound(answer, originals):
    """For the block, the names of ``answer``'s module (:func:`answer_globals`) bound to an
    original of ``originals`` (``(owner, name, original)``, taken before a checker patched
    ``owner.name``) are bound to ``owner.name`` as it is now: ``from torch.cuda import
    synchronize`` then meets the checker's patch, as ``torch.cuda.synchronize`` does; so does
    a ``functools.partial`` of an original made at import (``partial(dist.all_reduce, ...)``)."""
    saved = []
    for names in answer_globals(answer):
        for key, value in list(names.items()):
            for owner, name, original in originals:
                now = getattr(owner, name)
                if value is original and now is not original:
                    saved.append((names, key, value))
                    names[key] = now
                elif _partial_of(value, original) and now is not original:
                    saved.append((names, key, value))
                    names[key] = functools.partial(now, *value.args, **value.keywords)
    try:
        yield
    finally:
        for names, key, value in saved:
            names[key] = value
