"""The GPU side of ``06.slowest_op``: watch a profiled answer on a real GPU, or script one.

* :func:`watched_gpu` records, on a real GPU, whether each profile asked for
  ``ProfilerActivity.CUDA``, every ``torch.cuda.synchronize`` (the GPU it waited
  for, and whether the profiler was running then) and every ``record_function``
  label opened while it ran; nothing else changes.
* :func:`scripted_gpu` does the same on a machine without a GPU, where it also
  makes ``torch.cuda`` report one GPU or more (the current one ``cuda:0``, which
  ``torch.cuda.set_device`` and ``torch.cuda.device`` change), turns
  ``torch.cuda.synchronize`` into a record only, and makes ``key_averages()`` of a profile during which the
  checker's ``fn`` ran return :data:`SCRIPTED_ROWS`: the times a GPU gives for
  a large product next to 20 tiny additions (device times only when CUDA was
  asked for, as on a real GPU); its ``events()`` lists the same rows call by
  call, and its kernels are device rows, so that ``table()`` prints it. A label
  the answer opened is two rows of it, as on a real GPU: the CPU's range, and the
  device's (``gpu_user_annotation``), whose self device time spans every kernel.

Both patch the class ``torch.autograd.profiler.profile``, which
``torch.profiler.profile`` uses underneath, so they see the answer's profile
however it imported the profiler.
"""

from __future__ import annotations

from contextlib import ExitStack, contextmanager

import torch
from torch.autograd import DeviceType
from torch.autograd.profiler_util import EventList, FunctionEventAvg

from ._ch06_calls import labels_opened
from ._kit import patched

__all__ = [
    "SCRIPTED_CPU_ROWS",
    "SCRIPTED_LAUNCH_ROWS",
    "SCRIPTED_LAUNCH_WHAT",
    "SCRIPTED_ROWS",
    "SCRIPTED_WANT",
    "SCRIPTED_WHAT",
    "scripted_cpu",
    "scripted_gpu",
    "watched_gpu",
]

# key, count, self CPU us, CPU total us, self device us, device total us. On a GPU the CPU
# pays for the launches (cudaLaunchKernel) and the device for the kernels; an operator's
# self device time is that of the kernels it launched (the product's kernel is listed too,
# after it, with the same time).
SCRIPTED_ROWS = [
    ("aten::matmul", 1, 8.0, 40.0, 0.0, 2900.0),
    ("aten::mm", 1, 25.0, 32.0, 2900.0, 2900.0),
    ("aten::add", 20, 160.0, 160.0, 40.0, 40.0),
    ("cudaLaunchKernel", 21, 210.0, 210.0, 0.0, 0.0),
    ("sm90_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize128x128x32", 1, 0.0, 0.0, 2900.0, 2900.0),
    ("void at::native::vectorized_elementwise_kernel<4>", 20, 0.0, 0.0, 40.0, 40.0),
]
SCRIPTED_WANT = "aten::mm"
SCRIPTED_WHAT = "a 4096 x 4096 product next to 20 tiny additions"
# A product small enough that launching the additions takes the CPU longer than the product
# takes the GPU: self CPU time, or CPU plus device time, ranks aten::add first. Run on cuda:1
# of two GPUs, the current one being cuda:0.
SCRIPTED_LAUNCH_ROWS = [
    ("aten::matmul", 1, 8.0, 33.0, 0.0, 60.0),
    ("aten::mm", 1, 25.0, 25.0, 60.0, 60.0),
    ("aten::add", 20, 160.0, 160.0, 30.0, 30.0),
    ("cudaLaunchKernel", 21, 105.0, 105.0, 0.0, 0.0),
    ("sm90_xmma_gemm_f32f32_f32f32_f32_nn_n_tilesize64x64x8", 1, 0.0, 0.0, 60.0, 60.0),
    ("void at::native::vectorized_elementwise_kernel<4>", 20, 0.0, 0.0, 30.0, 30.0),
]
SCRIPTED_LAUNCH_WHAT = "a 1024 x 1024 product next to 20 tiny additions, on cuda:1 of two GPUs"
# The CPU workload of one 512 x 512 product next to 80 exps (``many_calls_workload``), as a
# quiet 2-core machine profiles it on one thread (of 8 profiles: the product's fastest, 7.0 ms,
# and the exps' median call, 207 us, times 80): each exp's call is ~30x shorter than the
# product's, and the 80 of them add up to more.
SCRIPTED_CPU_ROWS = [
    ("aten::matmul", 1, 20.0, 7020.0, 0.0, 0.0),
    ("aten::mm", 1, 7000.0, 7000.0, 0.0, 0.0),
    ("aten::exp", 80, 16560.0, 16560.0, 0.0, 0.0),
]


class _Call(FunctionEventAvg):
    """A row of the scripted profile, with the fields ``table()`` reads and, for a call of its
    ``events()``, a ``FunctionEvent``'s ``name``."""

    is_user_annotation = is_python_function = False
    overload_name = ""

    def __init__(self) -> None:
        super().__init__()
        self.stack, self.input_shapes = [], []  # as a real profile's, which key_averages() reads

    @property
    def name(self) -> str:
        return self.key or ""


# An answer that returns an entry, not its .key, is told the type it returned: a real profile's.
_Call.__name__ = _Call.__qualname__ = "FunctionEventAvg"


def _labels(labels, rows, with_device: bool) -> list:
    """The rows of the answer's ``record_function`` labels: the CPU's range, whose total holds
    the operators', and (with device times) the device's, spanning every kernel."""
    kernels = sum(r[4] for r in rows if r[0].startswith(("sm90", "void")))
    cpu = sum(r[2] for r in rows)
    out: list[tuple] = []
    for label in labels:
        out.append((label, 1, 30.0, cpu + 30.0, 0.0, kernels if with_device else 0.0, None))
        if with_device:
            out.append((label, 1, 0.0, 0.0, kernels + 10.0, kernels + 10.0, DeviceType.CUDA))
    return out


def _scripted_events(with_device: bool, calls: bool = False, rows=None, labels=()) -> EventList:
    """The scripted profile's ``key_averages()``, or with ``calls`` its ``events()``: each
    row's calls one by one, whose times add up to the row's. ``rows``: :data:`SCRIPTED_ROWS`
    unless given; ``labels``: the answer's ``record_function`` labels."""
    rows = rows or SCRIPTED_ROWS
    events = []
    for key, count, self_cpu, cpu, self_dev, dev, device_type in _labels(labels, rows, with_device):
        e = _Call()
        e.key, e.count, e.is_user_annotation = key, count, True
        e.self_cpu_time_total, e.cpu_time_total = self_cpu, cpu  # type: ignore[assignment]
        e.self_device_time_total, e.device_time_total = self_dev, dev  # type: ignore[assignment]
        e.use_device = "cuda" if with_device else None
        if device_type is not None:
            e.device_type = device_type
        events.append(e)
    for key, count, self_cpu, cpu, self_dev, dev in rows:
        kernel = key.startswith(("cuda", "sm90", "void"))
        if not with_device and kernel:
            continue  # without CUDA activity a profile has no runtime calls and no kernels
        share = count if calls else 1
        for _ in range(share):
            e = _Call()
            e.key, e.count = key, count // share
            # torch declares these totals int; a profile of microseconds holds floats too.
            e.self_cpu_time_total = self_cpu / share  # type: ignore[assignment]
            e.cpu_time_total = cpu / share  # type: ignore[assignment]
            e.self_device_time_total = self_dev / share if with_device else 0.0  # type: ignore[assignment]
            e.device_time_total = dev / share if with_device else 0.0  # type: ignore[assignment]
            e.use_device = "cuda" if with_device else None
            if kernel and not key.startswith("cuda"):  # a kernel: a device's row, as kineto's
                e.device_type = DeviceType.CUDA
            events.append(e)
    listed = EventList(events, use_device="cuda" if with_device else None)
    listed._tree_built = True  # what key_averages() of a real profile's events() checks
    return listed


class _ScriptedStream:
    """What ``torch.cuda.current_stream()`` returns on the scripted GPU: its waits are records
    (of the GPU ``index`` it belongs to)."""

    def __init__(self, record, index):
        self._record, self._index = record, index

    def synchronize(self):
        self._record(self._index)

    def wait_stream(self, other):
        pass


class _ScriptedEvent(_ScriptedStream):
    """``torch.cuda.Event()`` on the scripted GPU: its wait is a record of the GPU of the
    stream it was recorded on (the current GPU's by default)."""

    def __init__(self, record, *args, **kwargs):
        super().__init__(record, torch.cuda.current_device())

    def record(self, stream=None):
        self._index = torch.cuda.current_device() if stream is None else stream._index

    def query(self):
        return True


class _ScriptedDevice:
    """``torch.cuda.device(d)`` on the scripted GPU: ``d`` is the current GPU in the block."""

    def __init__(self, state, device):
        self._state, self._index = state, _index(device)

    def __enter__(self):
        self._before, self._state["current"] = self._state["current"], self._index

    def __exit__(self, *exc):
        self._state["current"] = self._before


def _index(device=None) -> int:
    """The GPU that ``device`` (``None``, an index, a string or a ``torch.device``) names:
    the current one where it names none."""
    if device is None:
        return torch.cuda.current_device()
    if isinstance(device, int):
        return device
    index = torch.device(device).index
    return torch.cuda.current_device() if index is None else index


def _scripted_profile(state: dict, rows=None, cuda=lambda profile: False) -> list:
    """The patches that make ``key_averages()`` and ``events()`` of a profile during which the
    checker's ``fn`` ran (``state["fn_profiled"]``) return ``rows`` (or what ``rows(*args)``
    returns for key_averages' grouping ``args``); ``cuda(profile)``: whether it asked for device times."""
    from torch.profiler.profiler import _KinetoProfile  # torch.profiler.profile's base

    cls = torch.autograd.profiler.profile
    key_averages, events = cls.key_averages, _KinetoProfile.events

    def scripted_key_averages(self, *args, **kwargs):
        if not state["fn_profiled"]:
            return key_averages(self, *args, **kwargs)
        shown = rows(*args, **kwargs) if callable(rows) else rows  # grouped as asked
        return _scripted_events(cuda(self), rows=shown, labels=state["labels"])

    def scripted_calls(self):
        if not state["fn_profiled"]:
            return events(self)
        whole = rows() if callable(rows) else rows
        return _scripted_events(cuda(self.profiler), calls=True, rows=whole, labels=state["labels"])

    return [
        (cls, "key_averages", scripted_key_averages),
        (_KinetoProfile, "events", scripted_calls),
    ]


@contextmanager
def scripted_cpu(rows):
    """The CPU profile of a quiet machine: a profile during which the checker's ``fn`` ran
    (the caller sets ``state["fn_profiled"]``) holds ``rows``. Yields the state dict."""
    state = _new_state()
    with patched(*_scripted_profile(state, rows)):
        yield state


@contextmanager
def _watch(state: dict, scripted: bool, rows=None, device_times: bool = True):
    """Every way of waiting for the GPU (``torch.cuda.synchronize``, ``torch.accelerator.
    synchronize``, a stream's or an event's ``synchronize()``) is recorded in ``state["log"]``
    as ``("sync", profiler running, the GPU it waited for)``; labels in ``state["labels"]``."""
    cls = torch.autograd.profiler.profile
    init = cls.__init__

    def recorded_init(self, *args, use_device=None, **kwargs):
        self._d2lgpu_cuda = use_device == "cuda"
        state["cuda_requested"].append(self._d2lgpu_cuda)
        init(self, *args, use_device=None if scripted else use_device, **kwargs)

    def record(index):
        state["log"].append(("sync", torch.autograd._profiler_enabled(), index))

    def recorded(wait, which):
        def recorded_wait(*args, **kwargs):
            record(which(*args, **kwargs))
            if not scripted:
                return wait(*args, **kwargs)

        return recorded_wait

    def current(*args, **kwargs):
        return torch.cuda.current_device()

    changes = [
        (cls, "__init__", recorded_init),
        (torch.cuda, "synchronize", recorded(torch.cuda.synchronize, _index)),
        (torch.accelerator, "synchronize", recorded(torch.accelerator.synchronize, _index)),
        (torch.cuda.Stream, "synchronize", recorded(
            torch.cuda.Stream.synchronize, lambda stream: stream.device_index)),
        (torch.cuda.Event, "synchronize", recorded(torch.cuda.Event.synchronize, current)),
    ]  # fmt: skip
    if scripted:  # a CPU's rows have no device time, asked for or not
        asked = (lambda p: getattr(p, "_d2lgpu_cuda", False)) if device_times else (lambda p: False)
        changes += _scripted_profile(state, rows, cuda=asked)
        changes += [
            (torch.cuda, "current_stream", lambda device=None: _ScriptedStream(record, _index(device))),
            (torch.cuda, "default_stream", lambda device=None: _ScriptedStream(record, _index(device))),
            (torch.cuda, "Event", lambda *a, **k: _ScriptedEvent(record, *a, **k)),
            (torch.cuda, "current_device", lambda: state["current"]),
            (torch.cuda, "set_device", lambda device: state.update(current=_index(device))),
            (torch.cuda, "device", lambda device: _ScriptedDevice(state, device)),
            (torch.accelerator, "current_device_index", lambda: state["current"]),
            (torch.accelerator, "set_device_index", lambda device: state.update(current=_index(device))),
        ]  # fmt: skip
    with patched(*changes), labels_opened(state["labels"]):
        yield state


def _new_state() -> dict:
    return {"cuda_requested": [], "log": [], "fn_profiled": False, "labels": [], "current": 0}


@contextmanager
def watched_gpu():
    """On a real GPU: record CUDA requests, synchronizations and labels. Yields the state dict."""
    with _watch(_new_state(), scripted=False) as state:
        yield state


@contextmanager
def scripted_gpu(rows=None, gpus: int = 1, device_times: bool = True):
    """Without a GPU: pretend ``gpus`` of them (the current one ``cuda:0``), and script the
    profile: ``rows`` (:data:`SCRIPTED_ROWS` unless given; a CPU's, ``device_times=False``,
    for an answer asked about the CPU on a machine with a GPU). Yields the state dict.

    The caller sets ``state["fn_profiled"] = True`` once its ``fn`` ran under the profiler.
    """
    import warnings

    from .ch01_devices import fake_gpus

    with ExitStack() as stack:
        stack.enter_context(warnings.catch_warnings())
        warnings.simplefilter("ignore")  # the profiler's "CUDA is not available"
        stack.enter_context(fake_gpus(gpus))
        yield stack.enter_context(_watch(_new_state(), True, rows, device_times))
