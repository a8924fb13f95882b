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

How kernels share the GPU, a plain model with these assumptions:

* a kernel occupies the number of SMs it declares (``gpu.kernel(fn, sms=16)``),
  the whole GPU by default, for its whole duration; a kernel that asks for
  more SMs than the GPU has (more thread blocks than SMs, run in waves) fills
  it;
* kernels on different streams run side by side while the SMs they occupy
  add up to at most ``sms``; otherwise a kernel waits until enough SMs are
  free (it takes all of its SMs at once, never a part of them first);
* kernels start in the order they were launched: a kernel never starts before
  one launched earlier, even on another stream;
* a kernel takes the same time whatever runs beside it: nothing models shared
  memory bandwidth, caches or clocks, which on a real GPU slow kernels that
  run side by side, so the model shows the most that running side by side
  can gain.

With the default (every kernel fills the GPU) this is one compute engine:
kernels never overlap, whatever the streams.

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
order and the waits are the code's own. A copy takes the same time whatever
its size. Copies and kernels do not share memory bandwidth; several copies in
one direction take turns on one engine (a GPU has a few, and a copy from
pageable memory is staged in chunks). A race that the records list changes
values only in the cases above: a freed or overwritten buffer keeps its
values here (on a GPU the next copy may overwrite it under a running
kernel), other operations on device tensors see the copied data, and a copy
that is late is all-or-nothing (a GPU may see part of it). The host's own
work costs nothing but ``launch_s`` per queued operation and the pinning.
Kernels start in the order they were launched, also across streams: that is a GPU
with one hardware work queue (``CUDA_DEVICE_MAX_CONNECTIONS=1``, which Megatron-LM
sets on purpose, so that its tensor-parallel communication kernels are queued ahead
of the compute). By default CUDA gives several queues (8), and a kernel launched later
on another stream can start while an earlier one still waits on an event.
Leaving the block lets every queued copy land, as a final synchronize would.
"""

from __future__ import annotations

import weakref
from contextlib import contextmanager
from dataclasses import dataclass, field

import torch

from ._stream_mode import SimEvent, SimStream, StreamMode, Wait
from ._validate import check_int, check_positive, check_seconds
from .streams import Interval, format_timeline

__all__ = ["Op", "Hazard", "Wait", "SimGPU", "SimStream", "SimEvent", "simulated_cuda"]


@dataclass
class Op:
    """One queued operation: ``kind`` is ``"copy"``, ``"kernel"`` or ``"event"``."""

    id: int
    kind: str
    stream: SimStream
    label: str
    follows: dict  # stream name -> id of the last op on it that this op starts after
    start: float
    end: float
    batch: int | None = None
    flags: dict = field(default_factory=dict)


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


def _merge(a: dict, b: dict) -> dict:
    out = dict(a)
    for k, v in b.items():
        out[k] = max(out.get(k, -1), v)
    return out


class SimGPU:
    """The simulator's state; :func:`simulated_cuda` makes one and installs it."""

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

    # -- streams, host waits ---------------------------------------------------------------

    @property
    def current(self) -> SimStream:
        return self.stack[-1]

    def ready(self, follows: dict) -> float:
        return max((self.ops[i].end for i in follows.values() if i >= 0), default=0.0)

    def host_wait(self, follows: dict, why: str) -> None:
        """The host waits until the ops in ``follows`` (and those before them) are done."""
        self.host_time = max(self.host_time, self.ready(follows))
        self.host_follows = _merge(self.host_follows, follows)
        self.host_waits.append((why, len(self.ops)))

    def host_knows(self, follows: dict) -> None:
        """A ``query()`` returned True: the host knows these ops are done, without waiting."""
        self.host_follows = _merge(self.host_follows, follows)

    def all_streams(self) -> dict:
        follows: dict = {}
        for s in self.streams:
            follows = _merge(follows, s.follows)
        return follows

    def queue(self, kind, label, duration, *, engine=None, sms=None, batch=None, **flags) -> Op:
        """Queue an op on the current stream, on ``engine`` (``"h2d"``, ``"d2h"``, or
        ``"compute"``, which occupies ``sms`` SMs), after its stream and its engine."""
        s = self.current
        follows = _merge(s.follows, self.host_follows)
        self.host_time += self.launch_s
        start = max(self.host_time, self.ready(follows))
        if engine == "compute":
            sms = self.sms if sms is None else min(sms, self.sms)
            start = self._sms_free_at(start, sms)
            flags["sms"] = sms
        elif engine:
            start = max(start, self.engine_free.get(engine, 0.0))
        op = Op(len(self.ops), kind, s, label, follows, start, start + duration, batch, flags)
        self.ops.append(op)
        s.follows = {**follows, s.name: op.id}
        if engine == "compute":
            self._kernels = [k for k in self._kernels if k[0] > start] + [(op.end, sms)]
            self._last_kernel_start = start
        elif engine:
            self.engine_free[engine] = op.end
        return op

    def _sms_free_at(self, earliest: float, sms: int) -> float:
        """When a kernel that needs ``sms`` SMs can start, at ``earliest`` or later.

        Kernels start in launch order, so every kernel queued before has started by
        then: from there on the SMs in use only go down, as those kernels end.
        """
        t = max(earliest, self._last_kernel_start)
        running = sorted(k for k in self._kernels if k[0] > t)
        used = sum(n for _, n in running)
        for end, n in running:
            if used + sms <= self.sms:
                break
            t, used = end, used - n
        return t

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

    @staticmethod
    def after(first: Op, follows: dict) -> bool:
        """Whether work that starts after ``follows`` is sure to start after ``first`` ended."""
        return follows.get(first.stream.name, -1) >= first.id

    # -- host tensors ----------------------------------------------------------------------

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

    def pin(self, src: torch.Tensor, pinned: torch.Tensor) -> None:
        """``pinned`` is ``src`` copied into page-locked memory: the host copies every byte."""
        seconds = src.nbytes / (self.pin_gb_s * 1e9)
        batch = self.batch_of(src)
        shown = "." if batch is None else str(batch)
        self.host_work.append(
            Interval("host: pin_memory()", shown, self.host_time, self.host_time + seconds)
        )
        self.host_time += seconds
        self.host_copy(pinned, src, pinned=True)

    def landing(self, t: torch.Tensor, copy: Op, data: torch.Tensor) -> None:
        """Host tensor ``t`` receives ``data`` when the host knows that ``copy`` is done."""
        self._landing[id(t)] = [weakref.ref(t), copy, data, False]

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
        self._finalizers.append(weakref.finalize(t, self._freed, id(t), buf))
        return buf

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
        later = _merge(buf.stream.follows, self.host_follows)  # what its next user follows
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

    # -- what the caller reads -------------------------------------------------------------

    def kernel(self, fn, label: str = "compute", *, sms: int | None = None, seconds=None):
        """``fn`` as one kernel on the current stream, reading its tensors.

        It takes ``seconds`` (``compute_s`` by default) and occupies ``sms`` of the
        GPU's SMs (all of them by default; more than the GPU has means all of them).
        """
        check_int("sms", sms, minimum=1, allow_none=True)
        duration = self.compute_s if seconds is None else check_seconds("seconds", seconds)

        def simulated(*args, **kwargs):
            tensors = [a for a in args if isinstance(a, torch.Tensor)]
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

    def elapsed(self) -> float:
        """Simulated seconds from the start until the host and every queued op are done."""
        return max([self.host_time] + [op.end for op in self.ops])

    def intervals(self) -> list[Interval]:
        """Copies and kernels that take time, labelled by batch, on lanes "<stream>: copies"
        (to the device), "<stream>: copies to host" and "<stream>: kernels", and the host's
        pinning on lane "host: pin_memory()" (lanes in the order of their first interval)."""
        work = [
            Interval(
                f"{op.stream.name}: {_LANES[op.flags.get('direction', op.kind)]}",
                "." if op.batch is None else str(op.batch),
                op.start,
                op.end,
            )
            for op in self.ops
            if op.kind != "event" and op.end > op.start
        ]
        pins = [iv for iv in self.host_work if iv.end > iv.start]
        return sorted(work + pins, key=lambda iv: iv.start)

    def timeline(self, width: int = 60) -> str:
        """The simulated timeline as text (:func:`d2lgpu.streams.format_timeline`)."""
        return format_timeline(self.intervals(), width)

    def close(self) -> None:
        """The end: every queued copy lands, and freed tensors are no longer followed."""
        self._land(lambda op: True)
        for f in self._finalizers:
            f.detach()


_LANES = {"h2d": "copies", "d2h": "copies to host", "kernel": "kernels"}


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
