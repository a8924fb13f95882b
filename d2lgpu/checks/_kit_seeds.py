"""The checker kit's watch on torch's global random generators (:func:`reseeds_named`): a
part that the caller's own loop calls (a step, a hook, an optimizer) must leave them as the
caller had them.

What it is not: a rule on draws. A part may draw random numbers (dropout does); it may seed
a ``torch.Generator`` of its own, or reseed inside ``torch.random.fork_rng()``, which puts
the state back. What it leaves reseeded, the caller's own draws (its data order, dropout
masks, initialisations) restart from at every call.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Iterator
from contextlib import contextmanager

import torch

from ._kit import patched
from ._util import CheckFailed

__all__ = ["reseeds_named"]

# the reseeds, the setters of a state and its getters, as torch, torch.random and torch.cuda
# spell them
_SEEDS = ("manual_seed", "seed", "manual_seed_all", "seed_all")
_SETS = ("set_rng_state", "set_rng_state_all")
_GETS = ("get_rng_state", "get_rng_state_all")


def _same(a, b) -> bool:
    if isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor):
        return a.shape == b.shape and torch.equal(a, b)
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return len(a) == len(b) and all(map(_same, a, b))
    return False


def _label(owner, name: str) -> str:
    """``torch.cuda.seed_all``, or ``torch.manual_seed`` however reached (``torch.random``'s,
    or the learner's own name for it, which the kit binds to either owner's replacement)."""
    return f"torch.cuda.{name}" if owner is torch.cuda else f"torch.{name}"


def _noted(events: list, read: list, name: str, original, *args, **kwargs):
    """Call ``original``, noting in ``events`` a reseed (``"seed"``, with its words) or a
    state set back (``"restore"``: one read from the generator in this block; a state from
    elsewhere is a reseed), and in ``read`` each state read."""
    if name.endswith(_SETS):
        state = args[0] if args else kwargs.get("new_state", kwargs.get("new_states"))
        if any(_same(state, r) for r in read):
            events.append(("restore", name))
        else:
            events.append(("seed", f"{name}() with a state it had not read from that generator"))
    elif not name.endswith(_GETS):
        events.append(("seed", f"{name}()"))
    out = original(*args, **kwargs)
    if name.endswith(_GETS):
        read.append(out)
    return out


def _reported(seed: int) -> None:
    """Make the global generator report ``seed`` as its seed, its draws going on as they were
    (a state's first 8 bytes are the seed it reports), out of sight of the watches' modes."""
    with torch._C.DisableTorchFunction():
        state = torch.get_rng_state()
        state[:8] = torch.frombuffer(bytearray(seed.to_bytes(8, sys.byteorder)), dtype=torch.uint8)
        torch.set_rng_state(state)


@contextmanager
def _marked() -> Iterator:
    """Give the global generator a seed of its own to report for the block, and yield a test
    of whether it still reports it; put the caller's seed back where it does. A reseed to
    any seed, the caller's own included, takes the mark away."""
    seed = torch.initial_seed()
    mark = seed ^ _MARK
    _reported(mark)
    try:
        yield lambda: torch.initial_seed() == mark
    finally:
        if torch.initial_seed() == mark:
            _reported(seed)


_MARK = 0x5EED_D21_6A0  # any value but 0: the mark differs from the caller's seed


@contextmanager
def reseeds_named(who: str, error: type[Exception] = CheckFailed) -> Iterator[None]:
    """Raise ``error`` naming ``who`` where the block reseeded one of torch's global
    generators (``torch.manual_seed``, ``torch.seed``, ``torch.cuda.manual_seed_all``, a state
    of another generator set, ``torch.default_generator.manual_seed``) and set no state it
    had read back after it (as ``torch.random.fork_rng()`` does on leaving). An error of the
    block's own goes on as it was."""
    events: list = []
    read: list = []
    changes = [
        (owner, name, functools.partial(_noted, events, read, _label(owner, name), f))
        for owner in (torch, torch.random, torch.cuda)
        for name in (*_SEEDS, *_SETS, *_GETS)
        if callable(f := getattr(owner, name, None))
    ]
    with _marked() as marker:
        with patched(*changes):
            yield
        kept = marker()
    last = max((i for i, (kind, _) in enumerate(events) if kind == "restore"), default=-1)
    left = [words for kind, words in events[last + 1 :] if kind == "seed"]
    if not left and not kept:  # through the generator's own methods
        left = ["torch.default_generator.manual_seed()"]
    if left:
        raise error(
            f"{who} called {left[0]} and left torch's global random generator reseeded: "
            "the caller's own draws share it (its data order, dropout masks, initialisations), "
            "so they would restart from that seed at every call. Leave the global generator "
            "as the caller had it; random numbers of your own come from a torch.Generator you "
            "seed (torch.Generator().manual_seed(0)), or from inside "
            "torch.random.fork_rng(), which puts the state back"
        )
