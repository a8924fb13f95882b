"""The simulated GPU's streams and events: :class:`SimStream` and :class:`SimEvent` replace
``torch.cuda.Stream`` and ``torch.cuda.Event`` inside :func:`d2lgpu.stream_sim.simulated_cuda`
(they subclass ``torch.Stream`` and ``torch.Event``, so that ``tensor.record_stream(stream)``
accepts them); each wait of a stream for an event is kept as a :class:`Wait`. A ``query()``
that answers False costs the host a launch's time; ``elapsed_time`` raises, as CUDA's does,
unless both events have completed. A stream or an event of an earlier run (kept between
calls) is refused with an error that says so.

What it is not: the mode that follows tensors (:mod:`d2lgpu._stream_mode`) or the engines
that run the queued work (:mod:`d2lgpu._sim_engines`).
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

__all__ = ["SimStream", "SimEvent", "Wait", "active_gpu", "names_current_gpu", "ACTIVE"]

ACTIVE: list = []  # the SimGPU in force, innermost last


def names_current_gpu(gpu, device, call: str) -> None:
    """Note ``call`` in ``gpu.current_gpu_calls`` when its ``device`` (None: the current GPU,
    ``cuda:0``) is not the run's device, as when the run's device is ``cuda:1``."""
    try:
        named = torch.device("cuda", device) if isinstance(device, int) else torch.device(device)
    except (RuntimeError, TypeError):
        named = None
    index = 0 if device is None or named is None or named.index is None else named.index
    if gpu.device.index not in (None, index):
        shown = call if device is None else call.replace("()", f"({device!r})")
        gpu.current_gpu_calls.append(shown)


def active_gpu():
    if not ACTIVE:
        raise RuntimeError("a simulated stream or event is used outside simulated_cuda()")
    return ACTIVE[-1]


@dataclass
class Wait:
    """``stream`` made to wait (on the GPU) for an event recorded on ``on`` (None: an event
    never recorded), covering the ops in ``covers``, when ``at`` ops had been queued."""

    stream: SimStream
    on: SimStream | None
    covers: dict
    at: int


def _this_run(stream) -> None:
    """Refuse a stream that an earlier simulated run made (kept between calls)."""
    if ACTIVE and stream.gpu is not ACTIVE[-1]:
        raise RuntimeError(
            f"{stream.name} was made in an earlier run, and kept between calls (a global, a "
            "default argument, a cache): get the streams in each call. "
            "torch.cuda.current_stream() is the caller's stream at the time of that call, and "
            "a torch.cuda.Stream() made then is this call's own"
        )


def _event_this_run(event) -> None:
    """Refuse an event recorded in an earlier simulated run (kept between calls)."""
    if event.stream is not None and ACTIVE and event.stream.gpu is not ACTIVE[-1]:
        raise RuntimeError(
            "an event recorded in an earlier call (an earlier simulated run) was used in "
            "this one: it was kept between calls (a global or module-level list, a default "
            "argument, an attribute of the function), and it marks that call's work, not "
            "this one's. Keep what is pending in names local to the call, and hand "
            "everything over before returning"
        )


class SimStream(torch.Stream):
    """A simulated CUDA stream: an ordered queue of the simulator's operations."""

    def __new__(cls, *args, **kwargs):
        return super().__new__(cls, device="cpu")

    def __init__(self, device=None, priority=0, *, _gpu=None, _name=None, **kwargs):
        self.gpu = _gpu or active_gpu()
        self.name = _name or f"side stream {len(self.gpu.streams)}"
        if _gpu is None:
            names_current_gpu(self.gpu, device, "torch.cuda.Stream()")
        self.follows: dict = {}
        self.gpu.streams.append(self)

    def __eq__(self, other):
        return self is other

    def __ne__(self, other):
        return self is not other

    def __hash__(self):
        return id(self)

    def __repr__(self):
        return f"<simulated CUDA stream: {self.name}>"

    def wait_event(self, event) -> None:
        _this_run(self)
        if not isinstance(event, SimEvent):
            raise TypeError(f"wait_event expects a torch.cuda.Event, got {type(event).__name__}")
        _event_this_run(event)
        self.gpu.waits.append(Wait(self, event.stream, dict(event.follows), len(self.gpu.ops)))
        for k, v in event.follows.items():
            self.follows[k] = max(self.follows.get(k, -1), v)

    def wait_stream(self, stream) -> None:
        if not isinstance(stream, SimStream):
            raise TypeError(f"wait_stream expects a torch.cuda.Stream, got {type(stream).__name__}")
        self.wait_event(stream.record_event())

    def record_event(self, event=None):
        event = SimEvent() if event is None else event
        event.record(self)
        return event

    def synchronize(self) -> None:
        _this_run(self)
        self.gpu.host_wait(dict(self.follows), f"{self.name}.synchronize()")

    def query(self) -> bool:
        _this_run(self)
        return _query(self.gpu, self, self.gpu.ready(self.follows), f"{self.name}.query()")

    def __enter__(self):
        _this_run(self)
        self.gpu.stack.append(self)
        return self

    def __exit__(self, *exc):
        self.gpu.stack.pop()


class SimEvent(torch.Event):
    """A simulated CUDA event: a marker in a stream, which streams and the host can wait for."""

    def __new__(cls, *args, **kwargs):
        return super().__new__(cls, device="cpu")

    def __init__(self, enable_timing=False, blocking=False, interprocess=False, **kwargs):
        self.enable_timing = enable_timing
        self.follows: dict = {}
        self.time: float | None = None
        self.stream: SimStream | None = None  # where it was last recorded
        self.on_gpu: torch.device | None = None  # the GPU of its first record: it stays there

    def __repr__(self):
        return "<simulated CUDA event>"

    def record(self, stream=None) -> None:
        gpu = active_gpu()
        stream = gpu.current if stream is None else stream
        if not isinstance(stream, SimStream):
            raise TypeError(f"record expects a torch.cuda.Stream, got {type(stream).__name__}")
        _this_run(stream)
        if self.on_gpu is not None and self.on_gpu != gpu.device:  # c10/cuda/CUDAEvent.h
            raise RuntimeError(
                f"Event device {self.on_gpu.index} does not match recording stream's device "
                f"{gpu.device.index}. (An event is made on the GPU of its first record: this "
                "one was kept from an earlier call, a global or an attribute of the function, "
                "whose device was another. Make the events in each call.)"
            )
        self.on_gpu = gpu.device
        saved, gpu.stack = gpu.stack, [stream]
        try:
            op = gpu.queue("event", "event", 0.0)
        finally:
            gpu.stack = saved
        self.follows, self.time, self.stream = dict(stream.follows), op.end, stream

    def wait(self, stream=None) -> None:
        (active_gpu().current if stream is None else stream).wait_event(self)

    def synchronize(self) -> None:
        gpu = active_gpu()
        _event_this_run(self)
        gpu.host_wait(dict(self.follows), "event.synchronize()")

    def query(self) -> bool:
        gpu = active_gpu()
        _event_this_run(self)
        return _query(gpu, self, gpu.host_time if self.time is None else self.time, "event.query()")

    def elapsed_time(self, end) -> float:
        """Milliseconds from this event to ``end``, once both have completed.

        As PyTorch's ``CUDAEvent::elapsed_time`` (c10/cuda/CUDAEvent.h), which queries both
        events and raises "Both events must be completed before calculating elapsed time"
        unless both are done: reading the times needs the host to know the work is done, so
        a ``synchronize()`` (a host wait) comes first, or the read comes once the GPU is done."""
        if not (self.enable_timing and end.enable_timing):
            raise RuntimeError("both events need torch.cuda.Event(enable_timing=True)")
        if self.time is None or end.time is None:
            raise RuntimeError("both events must be recorded before elapsed_time")
        gpu = active_gpu()
        if max(self.time, end.time) > gpu.host_time:
            raise RuntimeError(
                "Both events must be completed before calculating elapsed time: on the "
                "simulated GPU, elapsed_time was called before the work the events mark was "
                "done, and a GPU raises this too (cudaErrorNotReady). Reading the times needs "
                "the host to wait for the end event (end.synchronize(), a sync point): read "
                "them after the loop, not while it queues work"
            )
        gpu.host_knows(self.follows)  # both events queried, and done: the host knows it
        gpu.host_knows(end.follows)
        return (end.time - self.time) * 1e3  # milliseconds, as CUDA's


def _query(gpu, waited, ready: float, what: str) -> bool:
    """A stream's or event's ``query()``: whether the work it marks is done by now.

    A call that answers False costs the host a launch's time, as a poll of the driver does,
    so that polling in a loop ends. A True after two or more Falses in a row, with nothing
    queued in between, is a host wait: the host polled until the work was done. Otherwise a
    True tells the host the work is done, as a synchronize would, without waiting."""
    follows, queued = dict(waited.follows), len(gpu.ops)
    polls = getattr(waited, "polls", (0, queued))
    polls = polls if polls[1] == queued else (0, queued)  # work queued since: not a polling loop
    if ready > gpu.host_time:
        gpu.host_time += max(gpu.launch_s, 1e-6)
        waited.polls = (polls[0] + 1, queued)
        return False
    waited.polls = (0, queued)
    if polls[0] >= 2:
        gpu.host_wait(follows, f"{what} polled until it returned True")
    else:
        gpu.host_knows(follows)
    return True
