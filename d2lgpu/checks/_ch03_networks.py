"""What chapter 3's checkers share: the exercises' model, how to compare two of them, and
a guard against an answer that leaves torch's process-wide defaults changed.

The checkers are :mod:`.ch03_parameters` (``03.parameters``) and
:mod:`.ch03_device_bug` (``03.device_bug``).
"""

from __future__ import annotations

import torch
from torch import nn

from ._kit_process import defaults_kept

__all__ = [
    "CLASS_WEIGHTS",
    "defaults_kept",
    "load_tensors_only",
    "make_net",
    "same_params",
    "seeded_net",
]

CLASS_WEIGHTS = (1.0, 2.0, 1.0)


def make_net() -> nn.Sequential:
    """The exercises' model: 4 inputs, 8 hidden units, 3 classes."""
    return nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))


def seeded_net(seed: int, build=make_net) -> nn.Sequential:
    """``build()`` (``make_net()``) with parameters drawn from ``seed``, leaving the global RNG
    alone."""
    with torch.random.fork_rng(devices=[]):  # leave the learner's RNG state alone
        torch.manual_seed(seed)
        return build()


def same_params(a: nn.Module, b: nn.Module, close: bool = False) -> bool:
    """Same parameter names and values (``close``: within float rounding), on any device."""
    sa, sb = a.state_dict(), b.state_dict()
    same = (lambda u, v: torch.allclose(u, v, rtol=1e-5, atol=1e-6)) if close else torch.equal
    return sa.keys() == sb.keys() and all(same(sa[k].cpu(), sb[k].cpu()) for k in sa)


def load_tensors_only(path):
    """``torch.load(path, weights_only=True)`` onto the CPU with no class allowed beyond torch's
    own, whatever ``torch.serialization.add_safe_globals`` allowed before the check began
    (an answer's import may have): a whole pickled module is refused."""
    allowed = torch.serialization.get_safe_globals()
    torch.serialization.clear_safe_globals()
    try:
        return torch.load(path, map_location="cpu", weights_only=True)
    finally:
        torch.serialization.add_safe_globals(allowed)
