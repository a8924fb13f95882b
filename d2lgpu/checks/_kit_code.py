"""The checker kit's watch on functions an answer must not use, however it reached them.

:func:`runs_of` records each call of the given Python functions while its block runs, in
every way the function object can be reached: a name imported before the check (``from
d2lgpu.pipeline import one_f_one_b_order``), a module attribute or an alias, which
replacing the module's attribute (:func:`._kit.calls_to`) cannot do. For the block, each
function's code is swapped for a short one that records the call and runs the original;
the original code is back when the block ends, whatever happened in it.

It swaps code rather than install a profiler (``sys.setprofile``): on CPython 3.11 a
profiler and the time limit's ``SIGALRM`` handler (:mod:`._guard`) together could spin
for ever on the handler's first line, and a profiler slows every call in the block.

What it is not: a sandbox. A function pasted into the answer's own code is the answer's
code, not the helper's, and is not seen; nor is a copy made with ``types.FunctionType``
from the helper's code before the block began.
"""

from __future__ import annotations

import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager

__all__ = ["runs_of"]

_RECORDER = """\
def recorder(*args, **kwargs):
    seen, original = {key}
    seen.append({name!r})
    return original(*args, **kwargs)
"""


def _recording_code(fn: types.FunctionType, seen: list[str], key: str) -> types.CodeType:
    """Code for ``fn`` that appends its name to ``seen``, then runs a copy of ``fn``.

    The recorder finds ``seen`` and the copy under ``key`` in ``fn``'s globals: a code
    object swapped into a function must have as many free variables as the one it replaces,
    and a module's function has none."""
    original = types.FunctionType(
        fn.__code__, fn.__globals__, fn.__name__, fn.__defaults__, fn.__closure__
    )
    original.__kwdefaults__ = fn.__kwdefaults__
    fn.__globals__[key] = (seen, original)
    namespace: dict = {}
    exec(_RECORDER.format(name=fn.__name__, key=key), {}, namespace)  # noqa: S102
    code = namespace["recorder"].__code__
    return code.replace(
        co_name=fn.__code__.co_name,
        co_filename=fn.__code__.co_filename,
        co_firstlineno=fn.__code__.co_firstlineno,
        co_qualname=fn.__code__.co_qualname,
    )


@contextmanager
def runs_of(*functions: Callable) -> Iterator[list[str]]:
    """Yield a list that receives the ``__name__`` of each of ``functions`` called in the
    block (directly or from code the block calls), in the order they were called.

    Each must be a plain Python function without free variables (a module's function):
    anything else is a TypeError that names it."""
    plain: list[types.FunctionType] = []
    for fn in functions:
        if not isinstance(fn, types.FunctionType) or fn.__code__.co_freevars:
            raise TypeError(
                f"runs_of watches a module's plain Python functions, got {fn!r}"
                + (" (a closure)" if isinstance(fn, types.FunctionType) else "")
            )
        plain.append(fn)
    seen: list[str] = []
    swapped: list[tuple[types.FunctionType, types.CodeType, str]] = []
    try:
        for fn in plain:
            key = f"__d2lgpu_runs_of_{id(fn)}_{len(swapped)}__"
            swapped.append((fn, fn.__code__, key))
            fn.__code__ = _recording_code(fn, seen, key)
        yield seen
    finally:
        for fn, code, key in reversed(swapped):
            fn.__code__ = code
            fn.__globals__.pop(key, None)
