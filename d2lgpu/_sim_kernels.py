"""Kernels on the simulated GPU: :class:`d2lgpu.stream_sim.SimGPU` is a :class:`Kernels`.
:meth:`Kernels.kernel` wraps a function as one kernel on the current stream: queued on the
SMs, it reads its tensors (recorded as accesses of their buffers) as the memory holds them
when it starts (:meth:`Kernels.seen_by`: stale if a copy into them has not landed), and its
results are buffers it wrote.

What it is not: when the kernel runs (:mod:`d2lgpu._sim_engines`) or the hazards its reads
and writes make (:mod:`d2lgpu.stream_sim`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch

from ._sim_engines import Op
from ._validate import check_int, check_seconds

__all__ = ["Kernels"]


class Kernels:
    """A function as a kernel, and what a kernel reads of a device tensor."""

    # set by SimGPU.__init__, or methods of SimGPU and its other bases
    compute_s: float
    quiet: int
    put: Callable[[torch.Tensor], torch.Tensor]
    queue: Callable[..., Op]
    after: Callable[[Op, dict], bool]
    access: Callable[..., None]
    buffer: Callable[..., Any]
    _buffer_entry: Callable[[Any], Any]

    def seen_by(self, op: Op, t: torch.Tensor) -> torch.Tensor:
        """What ``op`` reads of device tensor ``t``: ``t``, or what its memory held before a
        copy or kernel that wrote it, if ``op`` does not wait for that write and starts
        before it has ended."""
        buf = self._buffer_entry(t)
        write = None if buf is None else buf.last_write
        if write is None or not (write.flags.get("direction") == "h2d" or "sms" in write.flags):
            return t  # only copies to the device and kernels take time to write
        if self.after(write, op.follows) or write.end <= op.start:
            return t
        assert buf is not None  # it holds the write found above
        op.flags["stale"] = True
        with torch._C.DisableTorchFunction():
            before = torch.zeros_like(t) if buf.before is None else buf.before.clone()
        return self.put(before)

    def kernel(self, fn, label: str = "compute", *, sms: int | None = None, seconds=None):
        """``fn`` as one kernel on the current stream, reading its tensors.

        It takes ``seconds`` (``compute_s`` by default) and occupies ``sms`` of the
        GPU's SMs (all of them by default; more than the GPU has means all of them).
        """
        check_int("sms", sms, minimum=1, allow_none=True)
        duration = self.compute_s if seconds is None else check_seconds("seconds", seconds)

        def simulated(*args, **kwargs):
            tensors = [a for a in args if isinstance(a, torch.Tensor)]
            if any(map(self.from_earlier_run, tensors)):
                raise RuntimeError(
                    f"{label} got a device tensor made in an earlier run and kept between calls "
                    "(a global, a default argument, a cache keyed by data_ptr()): copy each "
                    "batch to the device in each call"
                )
            bufs = [b for b in map(self._buffer_entry, tensors) if b is not None]
            batch = next((b.batch for b in bufs if b.batch is not None), None)
            shown = label if batch is None else f"{label} {batch}"
            op = self.queue("kernel", shown, duration, engine="compute", sms=sms, batch=batch)
            op.flags["on_device"] = bool(tensors) and len(bufs) == len(tensors)
            for buf in bufs:
                self.access(op, buf, write=False)
            self.quiet += 1
            try:
                args = [self.seen_by(op, a) if isinstance(a, torch.Tensor) else a for a in args]
                result = fn(*args, **kwargs)
            finally:
                self.quiet -= 1
            for out in result if isinstance(result, list | tuple) else [result]:
                if isinstance(out, torch.Tensor) and self._buffer_entry(out) is None:
                    # written by this kernel, on this stream: what reads it must wait for it
                    new = self.buffer(out, new_batch=False if batch is None else batch)
                    self.access(op, new, write=True)
            return result

        return simulated
