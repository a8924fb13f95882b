"""The copies between the host and the simulated GPU, for :class:`d2lgpu._stream_mode.StreamMode`
(a :class:`Copies`): ``.to("cuda")``, ``.cuda()``, ``.cpu()``, ``.to("cpu")`` and ``copy_``
in either direction become copies on the host-to-device or device-to-host engine, that the
host waits for unless they are non-blocking with pinned memory; a copy to the host that does
not block fills its tensor only once the host knows it is done.

What it is not: the other operations on device tensors, ``pin_memory`` and
``record_stream`` (:class:`~d2lgpu._stream_mode.StreamMode`), or when the copies run
(:mod:`d2lgpu._sim_engines`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch

from ._device_watch import DeviceWatch

__all__ = ["Copies"]


class Copies(DeviceWatch):
    """A :class:`~d2lgpu._device_watch.DeviceWatch` whose copies queue on a simulated GPU."""

    gpu: Any  # the SimGPU, set by StreamMode
    _other: Callable[..., Any]  # StreamMode's: any other operation

    def _to_device(self, name, args, kwargs):
        src = args[0]
        blocking = not kwargs.pop("non_blocking", False)
        if name == "cuda" and len(args) > 2:
            blocking = not args[2]
        elif name == "to" and isinstance(args[-1], bool):
            blocking, args = not args[-1], args[:-1]
        kwargs.pop("copy", None)
        target = self._target(name, args, kwargs)  # "cuda" alone: cuda:0, the current GPU
        kwargs, args = self._to_cpu("to", args, kwargs)
        out = args[0].to(*args[1:], **kwargs)
        out = out.clone() if out is src else out
        buf = self.gpu.buffer(self.put(out, target or "cuda"), new_batch=self._batch(src))
        self._queue_copy(src, buf, blocking)
        return out

    def _batch(self, src):
        batch = self.gpu.batch_of(src)
        return False if batch is None else batch

    def _queue_copy(self, src, buf, blocking) -> None:
        gpu = self.gpu
        pinned = gpu.is_pinned(src)
        seconds = gpu.copy_s * (1.0 if pinned else gpu.pageable_factor)
        shown = "copy" if buf.batch is None else f"copy {buf.batch}"
        op = gpu.queue("copy", shown, seconds, engine="h2d", batch=buf.batch, direction="h2d")
        op.flags.update(pinned=pinned, non_blocking=not blocking)
        gpu.access(op, buf, write=True)
        for entry in [src] if pinned else []:  # the copy engine reads pinned memory later
            entry._d2lgpu_pending = op.id  # noqa: SLF001 -- a plain attribute on a CPU tensor
        if blocking or not pinned:
            why = "a copy without non_blocking=True" if blocking else "a copy from pageable memory"
            gpu.host_wait(dict(op.stream.follows), why)

    def _to_host(self, name, args, kwargs):
        """``x.cpu()``, ``x.to("cpu", ...)``: a copy on the device-to-host engine."""
        src = args[0]
        non_blocking = bool(kwargs.pop("non_blocking", False))
        if name == "to" and len(args) > 1 and isinstance(args[-1], bool):
            non_blocking, args = args[-1], args[:-1]
        kwargs.pop("copy", None)
        if name == "to":
            kwargs, args = self._to_cpu("to", args, kwargs)
            data = args[0].to(*args[1:], **kwargs)
        else:
            data = src.cpu(**kwargs)
        data = data.clone() if data is src else data
        why = ".cpu()" if name == "cpu" else ".to('cpu')"
        return self._queue_to_host(src, data, None, non_blocking, why)

    def _queue_to_host(self, src, data, dst, non_blocking, why):
        """Queue a copy of device tensor ``src`` (``data``: its values) to the host.

        Into ``dst``, or a new tensor (pinned if ``non_blocking``, as PyTorch makes
        it). Non-blocking into pinned memory, the host goes on and ``dst`` is filled
        when the host knows the copy is done; otherwise the host waits for it.
        """
        gpu = self.gpu
        buf = gpu.buffer(src)
        pinned = non_blocking if dst is None else gpu.is_pinned(dst)
        batch = None if buf is None else buf.batch
        seconds = gpu.d2h_s * (1.0 if pinned else gpu.pageable_factor)
        shown = "to host" if batch is None else f"to host {batch}"
        op = gpu.queue("copy", shown, seconds, engine="d2h", batch=batch, direction="d2h")
        op.flags.update(pinned=pinned, non_blocking=non_blocking)
        if buf is not None:
            gpu.access(op, buf, write=False)
            if gpu.seen_by(op, src) is not src:  # it read memory whose copy had not landed
                data = torch.zeros_like(data) if buf.before is None else buf.before.to(data)
        if non_blocking and pinned:
            out = torch.zeros_like(data) if dst is None else dst  # not filled yet
            if dst is None:
                gpu.host_copy(out, pinned=True)
            gpu.landing(out, op, data)
            return out
        self.reads.append(why)
        gpu.host_wait(dict(op.stream.follows), why)
        if dst is None:
            return data
        dst.copy_(data)
        return dst

    def _copy_into(self, func, types, args, kwargs):
        dst, src = args[0], args[1]
        gpu = self.gpu
        if not self.on_device(dst) and self.on_device(src) and not gpu.quiet:
            non_blocking = bool(kwargs.pop("non_blocking", False) or (len(args) > 2 and args[2]))
            why = f"copy_ of a device value into a CPU tensor ({self.origin(dst)})"
            return self._queue_to_host(src, src.clone(), dst, non_blocking, why)
        if self.on_device(dst) and not self.on_device(src):
            blocking = not (kwargs.pop("non_blocking", False) or (len(args) > 2 and args[2]))
            existing = gpu.buffer(dst)
            if existing is not None:  # what a compute that comes too early reads
                existing.before = self.put(dst.clone())
            func(dst, src)  # the data, at once; the simulated copy is queued below
            buf = gpu.buffer(dst, new_batch=self._batch(src))
            buf.batch = gpu.batch_of(src)
            self._queue_copy(src, buf, blocking)
            return dst
        if not self.on_device(dst) and not self.on_device(src):
            pending = getattr(dst, "_d2lgpu_pending", None)
            if pending is not None and not gpu.after(gpu.ops[pending], gpu.host_follows):
                gpu.pinned_overwritten(gpu.ops[pending])
            result = func(*args, **kwargs)
            gpu.host_copy(dst, src)
            return result
        return self._other(func, types, args, kwargs, "copy_")
