"""The checker kit's watch on how a module of the checker's own was called, on the
autocast regions an answer asks for (:func:`autocasts_asked`), on an optimizer's steps
(:func:`closure_first`), on the memory a call allocates (:func:`allocations`), and on the
threads a block starts, waited for after it (:func:`threads_started`).

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

import threading
import tracemalloc
from collections.abc import Iterator
from contextlib import contextmanager

import torch
from torch import autocast, nn
from torch.utils._python_dispatch import TorchDispatchMode

from ._kit import calls_to, patched

__all__ = ["CallCounted", "allocations", "autocasts_asked", "closure_first", "threads_started"]


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


class _NewStorages(TorchDispatchMode):
    """Records each operator's output whose storage is new (none of its inputs') and holds at
    least ``at_least`` bytes, as ``(operator, bytes)``."""

    def __init__(self, at_least: int, found: list[tuple[str, int]]):
        super().__init__()
        self.at_least, self.found = at_least, found

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        flat = torch.utils._pytree.tree_leaves((args, kwargs))
        given = {t.untyped_storage().data_ptr() for t in flat if isinstance(t, torch.Tensor)}
        for t in torch.utils._pytree.tree_leaves(out):
            if isinstance(t, torch.Tensor) and t.device.type != "meta":
                size, ptr = t.untyped_storage().nbytes(), t.untyped_storage().data_ptr()
                if size >= self.at_least and ptr not in given:
                    self.found.append((func.overloadpacket.__name__, size))
        return out


@contextmanager
def allocations(at_least: int) -> Iterator[list[tuple[str, int]]]:
    """What the block allocates of ``at_least`` bytes or more: each torch operator's new
    storage as ``(operator, bytes)``, and Python's own (NumPy's, a bytearray's) peak above
    what was traced before as ``("python", bytes)``. A trace the caller had started goes on."""
    found: list[tuple[str, int]] = []
    with _NewStorages(at_least, []):  # the mode's first use imports and builds its own parts
        torch.zeros(1).add_(1)
    tracing = tracemalloc.is_tracing()
    if not tracing:
        tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    tracemalloc.reset_peak()
    try:
        with _NewStorages(at_least, found):
            yield found
    finally:
        peak = tracemalloc.get_traced_memory()[1] - before
        if not tracing:
            tracemalloc.stop()
        if peak >= at_least:
            found.append(("python", peak))


@contextmanager
def threads_started(join_timeout: float) -> Iterator[list[threading.Thread]]:
    """Yield the list of the threads started while the block runs; after it, wait for each
    (``join_timeout`` seconds at most), so that what a thread left running did is seen."""
    with calls_to(threading.Thread, "start", lambda thread, *a, **k: thread) as started:
        yield started
    for thread in started:
        thread.join(timeout=join_timeout)
