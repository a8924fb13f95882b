"""The simulated GPU's engines and its scheduler: :class:`d2lgpu.stream_sim.SimGPU` is an
:class:`Engines`. An operation queued on a stream (:meth:`Engines.queue`) starts after its
stream's previous one, after the events its stream waits for, after what the host knows to
be done, and once its engine is free: a copy engine each way, or enough of the SMs.

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

What the engines leave out: a copy takes the same time whatever its size. Copies and kernels
do not share memory bandwidth; several copies in one direction take turns on one engine (a
GPU has a few, and a copy from pageable memory is staged in chunks). Kernels start in the
order they were launched, also across streams: that is a GPU with one hardware work queue
(``CUDA_DEVICE_MAX_CONNECTIONS=1``, which Megatron-LM sets on purpose, so that its
tensor-parallel communication kernels are queued ahead of the compute). By default CUDA
gives several queues (8), and a kernel launched later on another stream can start while an
earlier one still waits on an event.

What it is not: the streams and events (:mod:`d2lgpu._stream_mode`), the host's memory
(:mod:`d2lgpu._sim_host`) or the hazards (:mod:`d2lgpu.stream_sim`).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from ._stream_mode import SimStream
from .streams import Interval, format_timeline

__all__ = ["Engines", "Op", "merge"]


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


def merge(a: dict, b: dict) -> dict:
    out = dict(a)
    for k, v in b.items():
        out[k] = max(out.get(k, -1), v)
    return out


class Engines:
    """Queueing on the streams and engines, the host's waits, and the simulated timeline."""

    # set by SimGPU.__init__
    sms: int
    launch_s: float
    ops: list[Op]
    default: SimStream
    streams: list[SimStream]
    host_time: float
    host_follows: dict
    host_waits: list[tuple[str, int]]
    host_work: list[Interval]
    engine_free: dict[str, float]
    _kernels: list[tuple[float, int]]
    _last_kernel_start: float

    @property
    def stack(self) -> list[SimStream]:
        """The calling thread's stack of current streams: CUDA's current stream is per
        thread (``current_streams`` is ``thread_local`` in c10/cuda/CUDAStream.cpp), and a
        thread of the answer's own starts on the default stream."""
        stacks = self.__dict__.setdefault("_stacks", {})
        return stacks.setdefault(threading.get_ident(), [self.default])

    @stack.setter
    def stack(self, value: list[SimStream]) -> None:
        self.__dict__.setdefault("_stacks", {})[threading.get_ident()] = value

    @property
    def current(self) -> SimStream:
        return self.stack[-1]

    def ready(self, follows: dict) -> float:
        return max((self.ops[i].end for i in follows.values() if i >= 0), default=0.0)

    def host_wait(self, follows: dict, why: str) -> None:
        """The host waits until the ops in ``follows`` (and those before them) are done."""
        self.host_time = max(self.host_time, self.ready(follows))
        self.host_follows = merge(self.host_follows, follows)
        self.host_waits.append((why, len(self.ops)))

    def host_knows(self, follows: dict) -> None:
        """A ``query()`` returned True: the host knows these ops are done, without waiting."""
        self.host_follows = merge(self.host_follows, follows)

    def all_streams(self) -> dict:
        follows: dict = {}
        for s in self.streams:
            follows = merge(follows, s.follows)
        return follows

    def queue(self, kind, label, duration, *, engine=None, sms=None, batch=None, **flags) -> Op:
        """Queue an op on the current stream, on ``engine`` (``"h2d"``, ``"d2h"``, or
        ``"compute"``, which occupies ``sms`` SMs), after its stream and its engine."""
        s = self.current
        follows = merge(s.follows, self.host_follows)
        self.host_time += self.launch_s
        start = max(self.host_time, self.ready(follows))
        if engine == "compute":
            sms = self.sms if sms is None else min(sms, self.sms)
            start = self._sms_free_at(start, sms)
            flags["sms"] = sms
        elif engine:
            start = max(start, self.engine_free.get(engine, 0.0))
        flags["thread"] = threading.get_ident()  # the host thread that queued it
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

    @staticmethod
    def after(first: Op, follows: dict) -> bool:
        """Whether work that starts after ``follows`` is sure to start after ``first`` ended."""
        return follows.get(first.stream.name, -1) >= first.id

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


_LANES = {"h2d": "copies", "d2h": "copies to host", "kernel": "kernels"}
