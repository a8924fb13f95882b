"""The checker kit's watch on functions an answer must not use, however it reached them.

:func:`runs_of` records each call of the given Python functions while its block runs: by
their code objects, so that a call through a name imported before the check (``from
d2lgpu.pipeline import one_f_one_b_order``), a module attribute or a copy of the function
object is seen alike, which replacing the module's attribute (:func:`._kit.calls_to`)
cannot do. It uses ``sys.setprofile`` in the calling thread and restores the profiler that
was there.

What it is not: a sandbox. A function pasted into the answer's own code is the answer's
code, not the helper's, and is not seen.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

__all__ = ["runs_of"]


@contextmanager
def runs_of(*functions: Callable) -> Iterator[list[str]]:
    """Yield a list that receives the ``__name__`` of each of ``functions`` called in the
    block (directly or from code the block calls), in the order they were called."""
    codes = {fn.__code__: fn.__name__ for fn in functions}
    seen: list[str] = []
    previous = sys.getprofile()

    def profile(frame, event, arg):
        if event == "call" and frame.f_code in codes:
            seen.append(codes[frame.f_code])
        if previous is not None:
            previous(frame, event, arg)

    sys.setprofile(profile)
    try:
        yield seen
    finally:
        sys.setprofile(previous)
