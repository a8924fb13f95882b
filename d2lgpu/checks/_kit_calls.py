"""The checker kit's watch on how a module of the checker's own was called.

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

from torch import nn

__all__ = ["CallCounted"]


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
