"""The lanes of checker ``02.concurrency``: :class:`LoggingLane` and one logged run.

Every launch, every wait (a future's ``result()`` or ``exception()``, a device-wide
synchronize, a host read inside a lane's job), every product the caller makes itself and
every copy of a lane's result or of an input goes into one log, which the
checker's rules read.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager, nullcontext

import torch
from torch.overrides import TorchFunctionMode

from ._ch02_futures import _IN_A_JOB, LateLane, LoggedFuture, _job
from ._kit import COPY_METHODS, copies_of, patched
from ._util import MATRIX_PRODUCTS, CheckFailed

__all__ = [
    "OFF_THREAD",
    "LaneLog",
    "LateLane",
    "LoggedFuture",
    "LoggingLane",
    "run_logged",
    "lanes_bypassed",
    "streams_switched",
]

OFF_THREAD = "a thread of your own"  # where a launch came from, in the log, if not the caller


class LoggingLane:
    """A lane (``submit(fn, *args) -> future``) that records every launch and every wait.

    The work runs on the CPU when submitted; ``result()`` on the future counts
    as a wait. Lanes share one ``log`` of ``(event, lane name, job)`` triples, where
    ``job`` names the lane whose submitted function made the event (a wait inside a
    lane's job, a launch there), is :data:`OFF_THREAD` for a launch from a thread other than
    the one that made the lane, or is None; ``values`` keeps what each submitted call returned.
    """

    device: torch.device  # only where a run gives its lanes GPUs (run_logged's gpus),
    stream: object  # with a stream each

    def __init__(self, name: str, log: list):
        self.name, self.log = name, log
        self.values: list = []
        self._thread = threading.get_ident()  # the caller's

    def shutdown(self, *args, **kwargs):
        raise CheckFailed(
            f"your function called {self.name}.shutdown(): the lanes are the caller's, who "
            "submits to them again (a ThreadPoolExecutor shut down refuses new work: "
            "RuntimeError, cannot schedule new futures after shutdown). Leave them running; "
            "whoever made them shuts them down"
        )

    def submit(self, fn, *args, **kwargs):
        if kwargs:
            raise CheckFailed(
                f"{self.name}.submit got keyword arguments ({', '.join(f'{k}=' for k in kwargs)})"
                ": a lane's submit takes the function's arguments by position, submit(fn, "
                "*args), as the chapter's CudaLane.submit(self, fn, *args) does, which raises "
                f"TypeError on keywords. Pass them by position: {self.name}.submit(torch."
                "matmul, a, a), or bind them first with functools.partial"
            )
        off = threading.get_ident() != self._thread
        self.log.append(("launch", self.name, OFF_THREAD if off else _job(self.log)))
        running = getattr(self.log, "running", [])
        running.append(self.name)
        _IN_A_JOB.depth += 1  # any run's lane: not the caller
        try:
            value = fn(*args)  # keywords are refused above
        finally:
            running.pop()
            _IN_A_JOB.depth -= 1
        self.values.append(value)
        return LoggedFuture(self, value)


class LaneLog(list):
    """The lanes' shared log; ``running`` names the lanes whose jobs are running."""

    def __init__(self):
        super().__init__()
        self._threads = threading.local()
        self.called: dict[int, str] = {}  # a wait's place in the log: the call made, if not
        # .result()
        self.products: dict[str, list] = {}  # the products each lane's jobs made, in order

    @property
    def running(self) -> list[str]:
        """This thread's lanes whose jobs are running: another thread's are not its own."""
        if not hasattr(self._threads, "running"):
            self._threads.running = []
        return self._threads.running


@contextmanager
def _logging_syncs(log: list):
    """Record device-wide synchronizations (``torch.cuda.synchronize``, ``d2lgpu.sync``,
    ``torch.accelerator.synchronize``)."""
    import d2lgpu
    import d2lgpu.timing

    def logged(*args, **kwargs):
        log.append(("wait", "device", _job(log)))

    with patched(
        (torch.cuda, "synchronize", logged),
        (torch.accelerator, "synchronize", logged),  # torch 2.11 and later have it
        (d2lgpu, "sync", logged),
        (d2lgpu.timing, "sync", logged),
    ):
        yield


# Host reads (the name a hint gives each) and products, as a TorchFunctionMode sees them.
_HOST_READS = {
    "item": ".item()",
    "tolist": ".tolist()",
    "numpy": ".numpy()",
    "cpu": ".cpu()",
    "__float__": "float()",
    "__int__": "int()",
    "__bool__": "bool() or an if on a tensor",
    "__repr__": "print() of a tensor",
    "__str__": "print() of a tensor",
    "__format__": "an f-string of a tensor",
    "allclose": "torch.allclose()",
    "equal": "torch.equal()",
}


class _Watch(TorchFunctionMode):
    """Log host reads made inside a lane's job (a wait there) and products the caller makes;
    ``devices`` (``id()`` of a tensor to a device) is where those tensors say they are."""

    def __init__(self, log, devices=None):
        super().__init__()
        self.log, self.devices = log, devices or {}
        self.made: list = []  # what was computed from a tensor that says where it is: kept,
        # so that no other tensor takes its id() while the device it says is recorded

    def __torch_function__(self, func, types, args=(), kwargs=None):
        said = self.devices.get(id(args[0])) if args else None
        if said is not None and func == torch.Tensor.device.__get__:
            return said
        if said is not None and func == torch.Tensor.is_cuda.__get__:
            return said.type == "cuda"
        name = getattr(func, "__name__", "")
        job = _job(self.log)
        if job is not None and name in _HOST_READS:
            self.log.append(("wait", f"a host read ({_HOST_READS[name]})", job))
        elif job is None and name in _HOST_READS and name not in COPY_METHODS:
            self.log.append(("read", _HOST_READS[name], None))  # in the caller (copies: apart)
        elif job is None and name in MATRIX_PRODUCTS and not _IN_A_JOB.depth:
            self.log.append(("product", name, None))  # not in a lane of an earlier run either
        out = func(*args, **(kwargs or {}))
        if job is not None and name in MATRIX_PRODUCTS:
            self.log.products.setdefault(job, []).append(out)  # a job that stores, not returns
        if said is not None and isinstance(out, torch.Tensor) and id(out) not in self.devices:
            self.devices[id(out)] = said  # a product of x on cuda:0 is on cuda:0 too
            self.made.append(out)
        return out


class _PretendStream:
    """A stream of the run that pretends two GPUs: what it is, for a hint; its methods
    (``synchronize``, ``wait_stream``, ...) do nothing, and ``query()`` says it is done."""

    def __init__(self, what: str):
        self.what = what

    def __getattr__(self, name: str):
        return lambda *args, **kwargs: True if name == "query" else None


@contextmanager
def _logging_streams(log: list):
    """Record the caller's switches of the current stream (``torch.cuda.stream(s)``,
    ``set_stream``) to any stream but the current one, in the run that pretends two GPUs."""

    def switched(stream=None):
        what = getattr(stream, "what", "another stream")
        if stream is not None and what != "the current stream" and _job(log) is None:
            log.append(("stream", what, None))
        return nullcontext()

    def made(what):
        return lambda *args, **kwargs: _PretendStream(what)

    with patched(
        (torch.cuda, "stream", switched),
        (torch.cuda, "set_stream", switched),
        (torch.cuda, "current_stream", made("the current stream")),
        (torch.cuda, "default_stream", made("the default stream")),
        (torch.cuda, "Stream", made("a new stream")),
    ):
        yield


def streams_switched(log: list) -> str | None:
    """The hint for a current stream switched by the caller before a launch, if any."""
    switched = [what for event, what, _ in log if event == "stream"]
    if not switched or not any(event == "launch" for event, _, _ in log):
        return None
    return (
        f"you made {switched[0]} the current stream before submitting (torch.cuda.stream or "
        "set_stream, in a run where x, y were on cuda:0, cuda:1): a GPU lane (the chapter's "
        "CudaLane) makes its own stream wait for the current stream, where the caller made x "
        f"and y; under {switched[0]} it waits for other work, and its product may read the "
        "inputs before they are written. Submit from the caller's current stream as it is"
    )


def lanes_bypassed(log: list) -> str | None:
    """The hint for products the caller computed itself, no lane given any, in a run whose
    lanes had a stream each (``lane.stream``, as the chapter's CudaLane has)."""
    if any(event == "launch" for event, _, _ in log):
        return None
    if not any(event == "product" for event, _, _ in log):
        return None
    on = [what for event, what, _ in log if event == "stream" and what.startswith("lanes[")]
    how = f"under torch.cuda.stream({on[0]})" if on else "in the caller"
    return (
        "in a run where each lane was a GPU lane with a stream of its own (lane.device, "
        f"lane.stream, as the chapter's CudaLane), your function computed the products itself, "
        f"{how}, instead of submitting them: submit is what makes the lane's stream wait for "
        "the current stream, where x and y were made (wait_stream), and marks the inputs as "
        "in use there (record_stream); without them a product may read its inputs before they "
        "are written, a race. Call lanes[i].submit(torch.matmul, a, a) whatever the lanes are"
    )


def run_logged(answer, x, y, n_lanes: int, errors_ignored: bool = False, gpus=None):
    """``answer(x, y, lanes)`` on ``n_lanes`` logging lanes: ``(result, lanes, log)``;
    the result is None when the answer raised and ``errors_ignored``. With ``gpus``, a pair of
    GPU indexes, ``x`` and ``y`` say they are on those GPUs (their data stays on the CPU), and
    each lane has a ``device`` there, as the chapter's ``CudaLane`` has (``(0, 0)``: two
    streams of one GPU)."""
    log = LaneLog()
    lanes = [LoggingLane(f"lanes[{i}]", log) for i in range(n_lanes)]
    for lane, index in zip(lanes, gpus or (), strict=False):
        lane.device = torch.device("cuda", index)
        lane.stream = _PretendStream(f"{lane.name}.stream")

    def lane_of(t):  # the lane whose result t is, or the input t is, if any
        if t is x or t is y:
            return "x" if t is x else "y"
        return next((lane.name for lane in lanes if any(v is t for v in lane.values)), None)

    result, before = None, (x.clone(), y.clone())
    devices = {id(t): torch.device("cuda", i) for t, i in zip((x, y), gpus or (), strict=False)}
    streams = _logging_streams(log) if gpus else nullcontext()
    with _logging_syncs(log), streams, copies_of(lane_of) as copies, _Watch(log, devices):
        try:
            result = answer(x, y, lanes)
        except Exception:
            if not errors_ignored:
                raise
    log += [("copy", lane, how) for lane, how in copies]
    for name, t, was in (("x", x, before[0]), ("y", y, before[1])):
        if not torch.equal(t, was):
            raise CheckFailed(
                f"your function changed its input {name} in place (an in-place operation, "
                "copy_ or out=, on it): x and y are the caller's, who may use them again. "
                f"Compute each product into a new tensor ({name} @ {name}) and leave the "
                "inputs as they were"
            )
    return result, lanes, log
