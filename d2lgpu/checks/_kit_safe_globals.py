"""The checker kit's watch on the globals ``torch.load(weights_only=True)`` may build:
:class:`SafeGlobalsWrites` notes the classes and functions the answer's own lines allow
(``torch.serialization.add_safe_globals``) and whether they cleared the list, for
:func:`._kit_process.left_changed` to name and put back. Left allowed, every later
``weights_only`` load in the program builds them: a pickled module loads as if it were
tensors only.

A call is the answer's where the first frame outside ``torch.serialization``, torch's
unpickler and this module is the answer's own. torch allows classes of its own as it imports
a module (``torch.distributed.tensor``'s ``DTensor``, ``torch._dynamo``'s ``_DimRange``),
wherever the import ran: those stay. A ``with torch.serialization.safe_globals([...]):``
block takes its own back as it ends: nothing is left to name, unless it allowed again one
the caller had allowed, which its end takes off.

What it is not: a rule on the classes a block allows while it runs.
"""

from __future__ import annotations

import sys
from types import FrameType

import torch._weights_only_unpickler as unpickler

from ._kit_seeds import answers

__all__ = ["SafeGlobalsWrites"]

_SKIPPED = ("torch.serialization", "torch._weights_only_unpickler", __name__)


def _named(item) -> str:
    """An allowed global as code names it: its name, or the path given with it."""
    return item[1] if isinstance(item, tuple) else getattr(item, "__qualname__", repr(item))


def _by_answer(frame: FrameType | None) -> bool:
    """Whether the call whose caller is ``frame`` is the answer's own."""
    while frame is not None and frame.f_globals.get("__name__") in _SKIPPED:
        frame = frame.f_back
    return frame is not None and answers(frame.f_code.co_filename)


class SafeGlobalsWrites:
    """From its start until :meth:`stop`: the globals the answer's own lines allowed, and
    whether they cleared the list."""

    def __init__(self) -> None:
        self.before = set(unpickler._get_safe_globals())
        self.added: set = set()
        self.cleared = False
        self._saved = [
            (n, getattr(unpickler, n)) for n in ("_add_safe_globals", "_clear_safe_globals")
        ]
        add, clear = (original for _, original in self._saved)

        def add_safe_globals(safe_globals):
            if _by_answer(sys._getframe(1)):
                self.added |= set(safe_globals)
            return add(safe_globals)

        def clear_safe_globals():
            self.cleared = self.cleared or _by_answer(sys._getframe(1))
            return clear()

        unpickler._add_safe_globals = add_safe_globals
        unpickler._clear_safe_globals = clear_safe_globals

    def stop(self) -> list[str]:
        """Stop watching; what the answer left changed, as code, each put back as it was
        (torch's own additions since the start kept). Only the answer takes globals off the
        list: ``clear_safe_globals``, or a ``safe_globals`` block that allowed one again,
        whose end takes it off though it was allowed before."""
        for name, original in self._saved:
            setattr(unpickler, name, original)
        now = set(unpickler._get_safe_globals())
        left, gone = (self.added & now) - self.before, self.before - now
        changed = []
        if gone:
            names = ", ".join(sorted(map(_named, gone)))
            changed.append(
                "torch.serialization.clear_safe_globals()"
                if self.cleared
                else f"torch.serialization.safe_globals([{names}]) ended, taking off {names}, "
                "which the caller had allowed"
            )
        if left:
            changed.append(
                f"torch.serialization.add_safe_globals([{', '.join(sorted(map(_named, left)))}])"
            )
        if changed:
            unpickler._clear_safe_globals()
            unpickler._add_safe_globals(list(self.before | (now - left)))
        return changed
