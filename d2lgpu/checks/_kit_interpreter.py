"""The interpreter's own process-wide settings, for the kit's watch on process-wide state
(:mod:`._kit_process`): the garbage collector (on or off, its thresholds) and how often
threads switch (``sys.setswitchinterval``). A timing answer may turn the collector off, as
``timeit`` does; left off, every later line of the program runs without it.
"""

from __future__ import annotations

import gc
import sys

__all__ = ["put_back", "read"]


def read() -> tuple[bool, tuple[int, ...], float]:
    """The settings now: the collector on, its thresholds, the switch interval."""
    return gc.isenabled(), gc.get_threshold(), sys.getswitchinterval()


def put_back(before: tuple, now: tuple) -> list[str]:
    """What differs between ``before`` and ``now`` (:func:`read`), as the code that does it;
    each put back as it was."""
    (was_on, was_threshold, was_switch), (on, threshold, switch) = before, now
    changed = []
    if on != was_on:
        changed.append("gc.enable()" if on else "gc.disable()")
        (gc.enable if was_on else gc.disable)()
    if threshold != was_threshold:
        changed.append(f"gc.set_threshold({', '.join(map(str, threshold))})")
        gc.set_threshold(*was_threshold)
    if switch != was_switch:
        changed.append(f"sys.setswitchinterval({switch})")
        sys.setswitchinterval(was_switch)
    return changed
