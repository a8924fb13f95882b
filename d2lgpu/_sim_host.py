"""The host's side of the simulated GPU: :class:`d2lgpu.stream_sim.SimGPU` is a
:class:`HostMemory`. It keeps which host tensor is which batch and whether it is pinned,
what ``pin_memory()`` costs the host, and the copies to the host that land in a host tensor
only once the host knows they are done.

What it is not: the hazard of reading such a tensor too early (``SimGPU.host_access``, in
:mod:`d2lgpu.stream_sim`).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any

import torch

from ._sim_engines import Op
from .streams import Interval

__all__ = ["HostMemory"]


class HostMemory:
    """Host tensors: their batch, whether pinned, and the copies that land in them."""

    # set by SimGPU.__init__, or SimGPU's own
    pin_gb_s: float
    host_time: float
    host_work: list[Interval]
    _host: dict[int, tuple[weakref.ref, int | None, bool]]
    _landing: dict[int, list]
    _buffer_entry: Callable[[Any], Any]

    def name_batch(self, t: torch.Tensor, index: int, pinned: bool | None = None) -> torch.Tensor:
        """Call host tensor ``t`` batch ``index`` in the records; returns ``t``.

        ``pinned=True`` makes ``t`` pinned memory that was pinned beforehand, at no
        cost to this block, as ``DataLoader(pin_memory=True)``'s thread hands batches
        over; ``None`` keeps what ``t`` is.
        """
        if pinned is not None and not isinstance(pinned, bool):
            raise ValueError(f"pinned must be True, False or None, got {pinned!r}")
        pinned = self.is_pinned(t) if pinned is None else pinned
        self._host[id(t)] = (weakref.ref(t), index, pinned)
        return t

    def _host_entry(self, t):
        entry = self._host.get(id(t))
        return entry if entry is not None and entry[0]() is t else None

    def batch_of(self, t) -> int | None:
        entry = self._host_entry(t) or self._buffer_entry(t)
        return None if entry is None else entry[1] if isinstance(entry, tuple) else entry.batch

    def is_pinned(self, t) -> bool:
        entry = self._host_entry(t)
        return entry is not None and entry[2]

    def pin(self, src: torch.Tensor, pinned: torch.Tensor | None) -> None:
        """``pinned`` is ``src`` copied into page-locked memory: the host copies every byte.
        None: ``src`` was pinned already, and ``pin_memory()`` returned it at no cost (an
        interval of no time in ``host_work``, which the timeline leaves out)."""
        seconds = 0.0 if pinned is None else src.nbytes / (self.pin_gb_s * 1e9)
        batch = self.batch_of(src)
        shown = "." if batch is None else str(batch)
        self.host_work.append(
            Interval("host: pin_memory()", shown, self.host_time, self.host_time + seconds)
        )
        self.host_time += seconds
        if pinned is not None:
            self.host_copy(pinned, src, pinned=True)

    def landing(self, t: torch.Tensor, copy: Op, data: torch.Tensor) -> None:
        """Host tensor ``t`` receives ``data`` when the host knows that ``copy`` is done."""
        self._landing[id(t)] = [weakref.ref(t), copy, data, False]

    def _land(self, done) -> None:
        for key, (ref, copy, data, _) in list(self._landing.items()):
            t = ref()
            if t is None:
                del self._landing[key]
            elif done(copy):
                with torch._C.DisableTorchFunction():
                    t.copy_(data)
                del self._landing[key]

    def host_copy(self, dst, src=None, pinned=None) -> None:
        """``dst`` now holds ``src``'s data (pinned if ``pinned``, else as before)."""
        pinned = self.is_pinned(dst) if pinned is None else pinned
        batch = self.batch_of(src) if src is not None else self.batch_of(dst)
        self._host[id(dst)] = (weakref.ref(dst), batch, pinned)
