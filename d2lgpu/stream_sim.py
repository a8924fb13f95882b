"""A simulated GPU for CUDA stream code, on a CPU: what was queued, on which stream, after what.

>>> with simulated_cuda(copy_s=1e-3, compute_s=1e-3) as gpu:
...     results = overlapped(batches, gpu.kernel(compute), gpu.device)
>>> print(gpu.timeline())

Inside the block, ``torch.cuda.Stream``, ``Event``, ``stream``,
``current_stream``, ``default_stream``, ``set_stream``, ``synchronize``,
``is_available``, ``device_count`` and ``current_device`` are the simulator's;
``pin_memory()``, ``is_pinned()`` and ``record_stream()`` work without a
driver; tensors sent to a ``cuda`` device stay in CPU memory, say they are on
``cuda:0`` (:mod:`d2lgpu._device_watch`) and compute real values. What
would run on the GPU is *queued*, with simulated times, on three engines that
work at the same time:

* the **host-to-device copy engine**: a copy to the device takes ``copy_s``
  (``pageable_factor`` times longer from pageable memory);
* the **device-to-host copy engine**: a copy to the host takes ``d2h_s``
  (``copy_s`` unless given; ``pageable_factor`` times longer into pageable
  memory). A copy in each direction can run at once, as PCIe carries both;
* the **SMs**: a function wrapped by :meth:`SimGPU.kernel` takes ``compute_s``
  (or the ``seconds`` it is given) on the ``sms`` streaming multiprocessors it
  occupies; other operations on device tensors take no time.

An operation starts after its stream's previous one, after the events its
stream waits for, and once its engine is free. The host waits (a sync point)
for a copy from pageable memory or without ``non_blocking=True``, a host read
of device data (``.item()``, ``print``, ``.cpu()``...) and a
``synchronize()``. It does not wait for ``x.to("cpu", non_blocking=True)`` or
``pinned.copy_(x, non_blocking=True)``: as on a GPU these return at once, into
pinned host memory that holds the data only once the copy has landed. Host
code that reads such a tensor before a sync that covers the copy
(``event.synchronize()``, ``stream.synchronize()``, ``torch.cuda.synchronize()``,
or a ``query()`` that returned True) is a recorded hazard, and it reads what
the memory held: zeros from a fresh tensor, the old values from ``copy_``,
unless the simulated copy had ended by then. ``pin_memory()`` of a pageable
tensor holds the host while it copies the bytes, at ``pin_gb_s`` GB/s; of a
pinned tensor it returns the tensor, at no cost.

A kernel or a copy to the host that reads a device tensor whose copy from the
host it does not wait for, and that starts before that copy has ended, reads
what the memory held before the copy (zeros for a fresh tensor): its result
is wrong, as it would be on a GPU.

It keeps, in order: ``ops`` (every copy and kernel, with its stream and
times; a kernel's ``flags["sms"]`` is the SMs it occupied, a copy's
``flags["direction"]`` is ``"h2d"`` or ``"d2h"``, and ``flags["stale"]`` marks
an op that read memory before its copy landed), ``host_waits`` (each time the
host waited, and why), ``host_work`` (what held the host: each
``pin_memory()``), ``waits`` (each time a stream was made to wait for an event:
which stream, on which stream the event was recorded, and when) and ``hazards``
(a read of a buffer whose copy may not have finished, an overwrite of a buffer
another stream may still read, a device buffer freed while another stream may
still use it without ``record_stream``, whose memory the caching allocator may
then give to the next allocation on its stream, a buffer allocated on one
stream and used on another that does not wait for the work queued on the first
before the allocation, whose memory that work may still use, and a host read
of a copy to the host before a sync).

What it leaves out, and so what it is not: a model of a real GPU's speed. The
times, the SM counts and the pinning rate are chosen by the caller; the
order and the waits are the code's own (:mod:`d2lgpu._sim_engines` says what
its engines leave out). A race that the records list changes values only in
the cases above: a freed or overwritten buffer keeps its values here (on a GPU the next copy may overwrite it under a running
kernel), other operations on device tensors see the copied data, and a copy
that is late is all-or-nothing (a GPU may see part of it). The host's own
work costs nothing but ``launch_s`` per queued operation and the pinning.
Leaving the block lets every queued copy land, as a final synchronize would.
"""

from __future__ import annotations

import weakref
from contextlib import contextmanager
from dataclasses import dataclass

import torch

from ._sim_engines import Engines, Op, merge
from ._sim_host import HostMemory
from ._sim_kernels import Kernels
from ._sim_streams import ACTIVE
from ._stream_mode import SimEvent, SimStream, StreamMode, Wait
from ._validate import check_int, check_positive, check_seconds
from .streams import Interval

__all__ = ["Op", "Hazard", "Wait", "SimGPU", "SimStream", "SimEvent", "simulated_cuda"]

# Every tensor that was device memory in some run, while it lives: one used in a later run
# (kept between calls) is named, not taken for a host tensor.
_ONCE_ON_DEVICE: weakref.WeakValueDictionary = weakref.WeakValueDictionary()


@dataclass
class Hazard:
    """A possible race: ``kind`` is ``"read"``, ``"overwrite"``, ``"freed"``, ``"allocated"``
    or ``"host read"``."""

    kind: str
    batch: int | None
    first: Op  # the access that may still be running
    second: Op | None  # the access that may not wait for it (None: a free, a host write)
    made_on: str = ""  # a freed or allocated buffer's: the stream it was allocated on
    recorded: tuple[str, ...] = ()  # a freed buffer's: the streams given to record_stream

    def __str__(self) -> str:
        first = f"{self.first.label} on {self.first.stream.name}"
        # A buffer that holds no numbered batch (a staging buffer, say) is named by its writer.
        whose = f"batch {self.batch}'s" if self.batch is not None else f"{self.first.label}'s"
        if self.kind == "host read":
            return (
                f"the host read the result of {first} before a sync: the copy may not have "
                "landed (wait for an event recorded after it, or synchronize, before reading)"
            )
        if self.kind == "freed":
            return f"{whose} device memory was freed while {first} may still use it"
        if self.kind == "allocated" and self.second is not None:
            return (
                f"{whose} device memory was allocated on {self.made_on} while {first} may "
                f"still run there, and {self.second.label} on {self.second.stream.name} does "
                "not wait for that work, whose memory the allocator may have handed out"
            )
        if self.second is None:
            return f"the host overwrote pinned memory that {first} may still read"
        verb = "read" if self.kind == "read" else "overwrite"
        return (
            f"{self.second.label} on {self.second.stream.name} may {verb} {whose} "
            f"memory before {first} has finished"
        )


class _Buffer:
    def __init__(self, stream: SimStream, batch: int | None):
        self.stream, self.batch = stream, batch
        self.last_write: Op | None = None
        self.uses: list[Op] = []  # every access since the buffer was made
        self.reads: list[Op] = []  # reads since the last write
        self.recorded: set[str] = set()  # streams given to record_stream
        self.aliases = 0
        self.before: torch.Tensor | None = None  # the values before the last copy (None: zeros)
        # The last op queued on its stream when it was allocated: a block the caching allocator
        # gives that stream may still be in use by that work, so another stream must wait for it.
        self.made_after = stream.follows.get(stream.name, -1)


class SimGPU(Engines, Kernels, HostMemory):
    """The simulator's state; :func:`simulated_cuda` makes one and installs it.

    Queueing on the engines, the timeline and the host's waits are :class:`Engines`'s,
    kernels :class:`Kernels`', host tensors :class:`HostMemory`'s; here: device buffers and
    the hazards of their use."""

    def __init__(
        self, copy_s, compute_s, pageable_factor, launch_s, sms=100, d2h_s=None, pin_gb_s=10.0
    ):
        self.copy_s, self.compute_s = copy_s, compute_s
        self.d2h_s = copy_s if d2h_s is None else d2h_s
        self.pin_gb_s = pin_gb_s
        self.pageable_factor, self.launch_s = pageable_factor, launch_s
        self.sms = sms  # streaming multiprocessors, shared by the kernels of all streams
        self._kernels: list[tuple[float, int]] = []  # (end, SMs) of kernels that may still run
        self._last_kernel_start = 0.0
        self.device = torch.device("cuda", 0)
        self.ops: list[Op] = []
        self.host_waits: list[tuple[str, int]] = []  # (why, number of ops queued before)
        self.host_work: list[Interval] = []  # what held the host, lane "host: <why>"
        self.current_gpu_calls: list[str] = []  # torch.cuda calls that meant cuda:0, not device
        self.waits: list[Wait] = []  # each stream's wait_event / wait_stream, in order
        self.hazards: list[Hazard] = []
        self.host_time, self.host_follows = 0.0, {}
        self.engine_free = {"h2d": 0.0, "d2h": 0.0}  # one copy engine each way; kernels: the SMs
        self.streams: list[SimStream] = []
        self.default = SimStream(_gpu=self, _name="default stream")
        self.stack = [self.default]
        self._buffers: dict[int, tuple[weakref.ref, _Buffer]] = {}
        self._host: dict[int, tuple[weakref.ref, int | None, bool]] = {}  # batch, pinned
        self._finalizers: list[weakref.finalize] = []
        self._landing: dict[int, list] = {}  # host tensors a copy to the host has not filled yet
        self.quiet = 0
        self.put = lambda t: t  # marks a tensor as on the device (the mode's, once installed)

    # -- host reads ------------------------------------------------------------------------

    def host_access(self, t) -> None:
        """The host reads or writes ``t``: a hazard if a copy into it may not have landed.

        The copy lands (``t`` gets its data) here, once the host knows it is done or
        once it has ended in simulated time."""
        entry = self._landing.get(id(t))
        if entry is None or entry[0]() is not t:
            return
        copy = entry[1]
        if not self.after(copy, self.host_follows):
            if not entry[3]:
                entry[3] = True
                self.hazards.append(Hazard("host read", copy.batch, copy, None))
            if self.host_time < copy.end:
                return  # not landed: the host sees what the memory held
        self._land(lambda op: op is copy)

    # -- device buffers --------------------------------------------------------------------

    def _buffer_entry(self, t) -> _Buffer | None:
        entry = self._buffers.get(id(t))
        return entry[1] if entry is not None and entry[0]() is t else None

    def buffer(self, t, *, new_batch=None, alias_of=None) -> _Buffer | None:
        """The buffer of device tensor ``t``; made (on the current stream) when asked."""
        found = self._buffer_entry(t)
        if found is not None or (new_batch is None and alias_of is None):
            return found
        buf = alias_of or _Buffer(self.current, None if new_batch is False else new_batch)
        buf.aliases += 1
        self._buffers[id(t)] = (weakref.ref(t), buf)
        _ONCE_ON_DEVICE[id(t)] = t
        self._finalizers.append(weakref.finalize(t, self._freed, id(t), buf))
        return buf

    def from_earlier_run(self, t) -> bool:
        """Whether ``t`` is no buffer of this run but was device memory in an earlier one
        (where this GPU is itself an earlier run's, its kept kernel is named instead)."""
        if ACTIVE and ACTIVE[-1] is not self:
            return False
        return self._buffer_entry(t) is None and _ONCE_ON_DEVICE.get(id(t)) is t

    def access(self, op: Op, buf: _Buffer, write: bool) -> None:
        earlier: list[Op | None] = [*buf.reads, buf.last_write] if write else [buf.last_write]
        for first in earlier:
            if first is not None and not self.after(first, op.follows):
                kind = "overwrite" if write else "read"
                self.hazards.append(Hazard(kind, buf.batch, first, op))
                break
        else:
            made = buf.made_after
            if (
                op.stream is not buf.stream
                and made >= 0
                and not self.after(self.ops[made], op.follows)
            ):
                self.hazards.append(
                    Hazard("allocated", buf.batch, self.ops[made], op, made_on=buf.stream.name)
                )
                buf.made_after = -1  # said once per buffer
        buf.uses.append(op)
        if write:
            buf.last_write, buf.reads = op, []
        else:
            buf.reads.append(op)

    def _freed(self, key: int, buf: _Buffer) -> None:
        self._buffers.pop(key, None)
        buf.aliases -= 1
        if buf.aliases > 0:
            return
        later = merge(buf.stream.follows, self.host_follows)  # what its next user follows
        for use in buf.uses:
            other = use.stream is not buf.stream and use.stream.name not in buf.recorded
            if other and not self.after(use, later):
                recorded = tuple(sorted(buf.recorded))
                self.hazards.append(
                    Hazard("freed", buf.batch, use, None, buf.stream.name, recorded)
                )
                return

    def pinned_overwritten(self, copy: Op) -> None:
        """The host wrote into pinned memory that ``copy`` may still be reading."""
        self.hazards.append(Hazard("overwrite", copy.batch, copy, None))

    def close(self) -> None:
        """The end: every queued copy lands, and freed tensors are no longer followed."""
        self._land(lambda op: True)
        for f in self._finalizers:
            f.detach()


@contextmanager
def simulated_cuda(
    copy_s=1e-3,
    compute_s=1e-3,
    *,
    pageable_factor=3.0,
    launch_s=1e-5,
    sms=100,
    d2h_s=None,
    pin_gb_s=10.0,
):
    """Run CUDA stream code on a simulated GPU (see the module's docstring); yields a SimGPU.

    ``sms`` is the number of streaming multiprocessors the kernels share (a round
    100 by default: a kernel's ``sms`` is then its percentage of the GPU).
    ``d2h_s`` is a copy to the host's time (``copy_s`` by default), ``pin_gb_s``
    the rate at which ``pin_memory()`` copies a pageable tensor's bytes on the
    host (a round 10 GB/s by default, a choice, not a measurement: chapter 2
    times it on your machine).
    """
    copy_s, compute_s = check_seconds("copy_s", copy_s), check_seconds("compute_s", compute_s)
    launch_s = check_seconds("launch_s", launch_s)
    d2h_s = copy_s if d2h_s is None else check_seconds("d2h_s", d2h_s)
    if check_seconds("pageable_factor", pageable_factor) < 1:
        raise ValueError(f"pageable_factor must be a number >= 1, got {pageable_factor!r}")
    check_positive("pin_gb_s", pin_gb_s)  # may be inf: pinning costs nothing
    check_int("sms", sms, minimum=1)
    gpu = SimGPU(copy_s, compute_s, float(pageable_factor), launch_s, sms, d2h_s, float(pin_gb_s))
    mode = StreamMode(gpu)
    gpu.put = mode.put
    try:
        with mode.patched_cuda(), mode:
            yield gpu
    finally:
        gpu.close()
