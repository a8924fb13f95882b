"""What chapter 3's checkers share: the exercises' model, how to compare two of them, and
a guard against an answer that leaves torch's process-wide defaults changed.

The checkers are :mod:`.ch03_parameters` (``03.parameters``) and
:mod:`.ch03_device_bug` (``03.device_bug``).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import torch
from torch import nn

from ._util import CheckFailed

__all__ = ["CLASS_WEIGHTS", "defaults_kept", "make_net", "same_params", "seeded_net"]

CLASS_WEIGHTS = (1.0, 2.0, 1.0)


def make_net() -> nn.Sequential:
    """The exercises' model: 4 inputs, 8 hidden units, 3 classes."""
    return nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))


def seeded_net(seed: int) -> nn.Sequential:
    """``make_net()`` with parameters drawn from ``seed``, leaving the global RNG alone."""
    with torch.random.fork_rng(devices=[]):  # leave the learner's RNG state alone
        torch.manual_seed(seed)
        return make_net()


def same_params(a: nn.Module, b: nn.Module, close: bool = False) -> bool:
    """Same parameter names and values (``close``: within float rounding), on any device."""
    sa, sb = a.state_dict(), b.state_dict()
    same = (lambda u, v: torch.allclose(u, v, rtol=1e-5, atol=1e-6)) if close else torch.equal
    return sa.keys() == sb.keys() and all(same(sa[k].cpu(), sb[k].cpu()) for k in sa)


@contextmanager
def defaults_kept(what: str) -> Iterator[None]:
    """Fail if the block leaves a process-wide default of torch changed; restore it either way.

    ``torch.set_default_device``, ``torch.set_default_dtype`` and
    ``torch.set_grad_enabled`` called as functions last beyond the answer: every
    tensor made afterwards, the caller's and the checker's too, follows them.
    """
    device, dtype, grad = (
        torch.get_default_device(),
        torch.get_default_dtype(),
        torch.is_grad_enabled(),
    )
    try:
        yield
    finally:
        changed = []
        if torch.get_default_device() != device:
            changed.append(f"torch.set_default_device({str(torch.get_default_device())!r})")
            torch.set_default_device(None if device.type == "cpu" else device)
        if torch.get_default_dtype() != dtype:
            changed.append(f"torch.set_default_dtype({torch.get_default_dtype()})")
            torch.set_default_dtype(dtype)
        if torch.is_grad_enabled() != grad:
            changed.append(f"torch.set_grad_enabled({torch.is_grad_enabled()})")
            torch.set_grad_enabled(grad)
        if changed:
            raise CheckFailed(
                f"{what} leaves a process-wide default of torch changed ({', '.join(changed)}): "
                "every tensor made afterwards anywhere in the program, the caller's too, follows "
                "it. Keep the change inside your function: device= or dtype= on the tensors you "
                "make, or a with-block that undoes it when it ends (with torch.device(device):, "
                "with torch.no_grad():)"
            )
