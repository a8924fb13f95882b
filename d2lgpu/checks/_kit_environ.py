"""The checker kit's watch on ``os.environ``: :class:`EnvironWrites` notes the variables the
answer's own lines write, with each one's value before the first write (for
:func:`._kit_process.left_changed` to name and put back), and :func:`case_environ` runs a
case with variables of its own set or unset, fails where the answer writes one while the
case runs, and puts every variable back as the block found it.

A write is the answer's where the first frame outside ``os`` and ``collections.abc`` is the
answer's own: ``os.environ[...] = ...``, ``del``, ``setdefault``, ``update`` and ``pop``
alike. Those two modules are named by module, not by file: Python 3.11 and later freeze
them, and their frames' file is ``<frozen os>``, never ``os.__file__``.

What it is not: a rule on what the answer does inside a block that undoes it, or on what
torch writes (a cache folder it names).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager

from ._kit_seeds import answers
from ._util import CheckFailed, state_left_hint

__all__ = ["EnvironWrites", "as_code", "case_environ", "put"]

_WATCHES: list[EnvironWrites] = []  # the watches started and not stopped, innermost last


class EnvironWrites:
    """From its start until :meth:`stop`: the keys of ``os.environ`` that the answer's own
    lines wrote, each with its value before the first write (None: it was unset)."""

    # os._Environ's methods, and MutableMapping's (update, pop, clear), whose module
    # _collections_abc names itself collections.abc
    _SKIPPED = ("os", "collections.abc", "_collections_abc")

    def __init__(self) -> None:
        self.before: dict[str, str | None] = {}
        self._saved = [(n, getattr(os._Environ, n)) for n in ("__setitem__", "__delitem__")]
        for name, original in self._saved:
            setattr(os._Environ, name, self._noting(original))
        _WATCHES.append(self)

    def _noting(self, original):
        def write(environ, key, *value):
            frame = sys._getframe(1)
            while frame is not None and frame.f_globals.get("__name__") in self._SKIPPED:
                frame = frame.f_back
            name = "" if frame is None else frame.f_code.co_filename
            if answers(name) and key not in self.before:
                self.before[key] = environ.get(key)
            return original(environ, key, *value)

        return write

    def stop(self) -> dict[str, str | None]:
        """Stop watching (the innermost watch first); the keys written and their values."""
        for name, original in self._saved:
            setattr(os._Environ, name, original)
        if self in _WATCHES:
            _WATCHES.remove(self)
        return self.before


def as_code(key: str, value: str | None) -> str:
    """The line that leaves ``key`` at ``value`` (None: unset)."""
    return f"os.environ[{key!r}] = {value!r}" if value is not None else f"del os.environ[{key!r}]"


def put(key: str, value: str | None) -> None:
    """Set ``key`` to ``value``, or unset it where ``value`` is None."""
    if value is None:
        os.environ.pop(key, None)
    else:
        os.environ[key] = value


@contextmanager
def case_environ(
    env: Mapping[str, str | None], what: str, remedy: str | None = None
) -> Iterator[None]:
    """Run the block with ``env``'s variables set (None: unset), then put every variable of
    ``os.environ`` back as it was before the block, whoever wrote it.

    Where the block ends and the answer's own lines left a variable other than they found
    it, fail naming it as code (``what`` is the function's name; ``remedy`` what to do
    instead, else: set it back before returning). The watches around the block forget
    those writes: the block has put the variables back, so nothing is left to name there.
    """
    saved = dict(os.environ)
    known = [(watch, set(watch.before)) for watch in _WATCHES]
    for key, value in env.items():
        put(key, value)
    inner = EnvironWrites()
    try:
        yield
    finally:
        written = inner.stop()
        left = [as_code(k, os.environ.get(k)) for k in sorted(written)
                if os.environ.get(k) != written[k]]  # fmt: skip
        for key in set(os.environ) | set(saved):
            if os.environ.get(key) != saved.get(key):
                put(key, saved.get(key))
        for watch, keys in known:
            for key in set(watch.before) - keys:
                del watch.before[key]
    if left:  # the block ended without an error of its own (which goes through as it is)
        if remedy is None:
            raise CheckFailed(state_left_hint(what, left))
        raise CheckFailed(f"{what} leaves the environment changed ({', '.join(left)}): {remedy}")
