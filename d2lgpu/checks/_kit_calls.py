"""The checker kit's watch on how a module of the checker's own was called, on the
autocast regions an answer asks for (:func:`autocasts_asked`), and on an optimizer's steps
(:func:`closure_first`).

:class:`CallCounted` is an ``nn.Module`` that counts, in ``direct``, the forwards that came
as ``module.forward(h)``, past ``nn.Module.__call__`` and so past every hook on the module
(forward and pre-forward hooks, and the ones DDP, FSDP, profilers and parametrizations put
there), not as ``module(h)``. Its forward calls :meth:`CallCounted.counted` first. A forward
pre-hook marks each call that came through ``__call__``; the forward reads the mark and
clears it.

What it is not: a hint. Each checker says in its own words which of its modules ran
without their hooks.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import torch
from torch import autocast, nn

from ._kit import patched

__all__ = ["CallCounted", "autocasts_asked", "closure_first"]


class CallCounted(nn.Module):
    """A module that counts its forwards called past ``nn.Module.__call__`` (``direct``)."""

    def __init__(self):
        super().__init__()
        self.direct, self._called = 0, False
        self.register_forward_pre_hook(_through_call)

    def counted(self) -> None:
        """In ``forward``, first: count a call that did not come through ``__call__``."""
        self.direct += not self._called
        self._called = False


def _through_call(module: CallCounted, args) -> None:
    module._called = True  # the forward that follows came through module(h)


@contextmanager
def autocasts_asked() -> Iterator[list[tuple[str, torch.dtype]]]:
    """Yield a list of the ``(device_type, dtype)`` of each ``torch.autocast`` the block makes
    enabled, or enters enabled where it was made before (a decorator). On a pretend GPU one
    for ``"cuda"`` is switched off (no CUDA): the list says what a GPU would have lowered."""
    asked: list[tuple[str, torch.dtype]] = []
    made: set[int] = set()
    init, enter = autocast.__init__, autocast.__enter__

    def made_here(self, device_type, dtype=None, enabled=True, cache_enabled=None):
        made.add(id(self))
        if enabled and isinstance(device_type, str):
            asked.append((device_type, dtype or torch.get_autocast_dtype(device_type)))
        init(self, device_type, dtype, enabled, cache_enabled)

    def entered(self):
        if id(self) not in made and self._enabled:  # set by every autocast.__init__
            asked.append((self.device, self.fast_dtype))
        return enter(self)

    with patched((autocast, "__init__", made_here), (autocast, "__enter__", entered)):
        yield asked


def closure_first(step, before_step):
    """An optimizer's ``step`` with ``SGD.step``'s signature, watched: a closure given to it
    (``opt.step(closure)``) runs first, under ``enable_grad`` as ``SGD.step`` runs it, since
    it makes the gradients; then ``before_step()``, which reads them; then the plain step.
    It returns what ``SGD.step`` does: the closure's loss, None without one."""

    def watched(closure=None):
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        before_step()
        step()
        return loss

    return watched
