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
from collections.abc import Iterator
from contextlib import contextmanager

import torch

from ._kit import patched
from ._util import CheckFailed

__all__ = ["reseeds_named"]

# the reseeds, and the setters of a saved state, as torch, torch.random and torch.cuda spell them
_SEEDS = ("manual_seed", "seed", "manual_seed_all", "seed_all")
_SETS = ("set_rng_state", "set_rng_state_all")


def _noted(events: list[str], name: str, original, *args, **kwargs):
    events.append(name)
    return original(*args, **kwargs)


@contextmanager
def reseeds_named(who: str, error: type[Exception] = CheckFailed) -> Iterator[None]:
    """Raise ``error`` naming ``who`` where the block reseeded one of torch's global
    generators (``torch.manual_seed``, ``torch.seed``, ``torch.cuda.manual_seed_all``, ...)
    and set no saved state after it (as ``torch.random.fork_rng()`` does on leaving). An
    error of the block's own goes on as it was."""
    events: list[str] = []
    changes = [
        (owner, name, functools.partial(_noted, events, f"{owner.__name__}.{name}", original))
        for owner in (torch, torch.random, torch.cuda)
        for name in (*_SEEDS, *_SETS)
        if callable(original := getattr(owner, name, None))
    ]
    with patched(*changes):
        yield
    last_set = max((i for i, e in enumerate(events) if e.endswith(_SETS)), default=-1)
    left = [e for e in events[last_set + 1 :] if not e.endswith(_SETS)]
    if left:
        raise error(
            f"{who} called {left[0]}() and left torch's global random generator reseeded: "
            "the caller's own draws share it (its data order, dropout masks, initialisations), "
            "so they would restart from that seed at every call. Leave the global generator "
            "as the caller had it; random numbers of your own come from a torch.Generator you "
            "seed (torch.Generator().manual_seed(0)), or from inside "
            "torch.random.fork_rng(), which puts the state back"
        )
