"""The GPU side of ``06.slowest_op``: watch a profiled answer on a real GPU, or script one.

* :func:`watched_gpu` records, on a real GPU, whether each profile asked for
  ``ProfilerActivity.CUDA`` and every ``torch.cuda.synchronize`` (and whether
  the profiler was running then); nothing else changes.
* :func:`scripted_gpu` does the same on a machine without a GPU, where it also
  makes ``torch.cuda`` report one GPU, turns ``torch.cuda.synchronize`` into a
  record only, and makes ``key_averages()`` of a profile during which the
  checker's ``fn`` ran return :data:`SCRIPTED_ROWS`: the times a GPU gives for
  a large product next to 20 tiny additions (device times only when CUDA was
  asked for, as on a real GPU); its ``events()`` lists the same rows call by
  call, and its kernels are device rows, so that ``table()`` prints it.

Both patch the class ``torch.autograd.profiler.profile``, which
``torch.profiler.profile`` uses underneath, so they see the answer's profile
however it imported the profiler.
"""

from __future__ import annotations

from contextlib import ExitStack, contextmanager

import torch
from torch.autograd import DeviceType
from torch.autograd.profiler_util import EventList, FunctionEventAvg

from ._kit import patched

__all__ = [
    "SCRIPTED_CPU_ROWS",
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


def _scripted_events(with_device: bool, calls: bool = False, rows=None) -> EventList:
    """The scripted profile's ``key_averages()``, or with ``calls`` its ``events()``: each
    row's calls one by one, whose times add up to the row's. ``rows``: :data:`SCRIPTED_ROWS`
    unless given."""
    events = []
    for key, count, self_cpu, cpu, self_dev, dev in rows or SCRIPTED_ROWS:
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
    """What ``torch.cuda.current_stream()`` returns on the scripted GPU: its waits are records."""

    def __init__(self, record):
        self._record = record

    def synchronize(self):
        self._record()

    def wait_stream(self, other):
        pass


class _ScriptedEvent(_ScriptedStream):
    """``torch.cuda.Event()`` on the scripted GPU: recorded, and its wait is a record."""

    def __init__(self, record, *args, **kwargs):
        super().__init__(record)

    def record(self, stream=None):
        pass

    def query(self):
        return True


def _scripted_profile(state: dict, rows=None, cuda=lambda profile: False) -> list:
    """The patches that make ``key_averages()`` and ``events()`` of a profile during which the
    checker's ``fn`` ran (``state["fn_profiled"]``) return ``rows``; ``cuda(profile)`` says
    whether that profile asked for device times."""
    from torch.profiler.profiler import _KinetoProfile  # torch.profiler.profile's base

    cls = torch.autograd.profiler.profile
    key_averages, events = cls.key_averages, _KinetoProfile.events

    def scripted_key_averages(self, *args, **kwargs):
        if not state["fn_profiled"]:
            return key_averages(self, *args, **kwargs)
        return _scripted_events(cuda(self), rows=rows)

    def scripted_calls(self):
        if not state["fn_profiled"]:
            return events(self)
        return _scripted_events(cuda(self.profiler), calls=True, rows=rows)

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
def _watch(state: dict, scripted: bool, rows=None):
    """Every way of waiting for the GPU (``torch.cuda.synchronize``, ``torch.accelerator.
    synchronize``, a stream's or an event's ``synchronize()``) is recorded in ``state["log"]``."""
    cls = torch.autograd.profiler.profile
    init, synchronize = cls.__init__, torch.cuda.synchronize

    def recorded_init(self, *args, use_device=None, **kwargs):
        self._d2lgpu_cuda = use_device == "cuda"
        state["cuda_requested"].append(self._d2lgpu_cuda)
        init(self, *args, use_device=None if scripted else use_device, **kwargs)

    def record():
        state["log"].append(("sync", torch.autograd._profiler_enabled()))

    def recorded(wait):
        def recorded_wait(*args, **kwargs):
            record()
            if not scripted:
                return wait(*args, **kwargs)

        return recorded_wait

    changes = [
        (cls, "__init__", recorded_init),
        (torch.cuda, "synchronize", recorded(synchronize)),
        (torch.accelerator, "synchronize", recorded(torch.accelerator.synchronize)),
        (torch.cuda.Stream, "synchronize", recorded(torch.cuda.Stream.synchronize)),
        (torch.cuda.Event, "synchronize", recorded(torch.cuda.Event.synchronize)),
    ]
    if scripted:  # a CPU's rows (``rows``) have no device time, asked for or not
        asked = (lambda p: False) if rows else (lambda p: getattr(p, "_d2lgpu_cuda", False))
        changes += _scripted_profile(state, rows, cuda=asked)
        changes += [
            (torch.cuda, "current_stream", lambda device=None: _ScriptedStream(record)),
            (torch.cuda, "default_stream", lambda device=None: _ScriptedStream(record)),
            (torch.cuda, "Event", lambda *a, **k: _ScriptedEvent(record, *a, **k)),
        ]
    with patched(*changes):
        yield state


def _new_state() -> dict:
    return {"cuda_requested": [], "log": [], "fn_profiled": False}


@contextmanager
def watched_gpu():
    """On a real GPU: record CUDA requests and synchronizations. Yields the state dict."""
    with _watch(_new_state(), scripted=False) as state:
        yield state


@contextmanager
def scripted_gpu(rows=None):
    """Without a GPU: pretend one, and script the profile (:data:`SCRIPTED_ROWS`, or the
    CPU's ``rows`` for an answer asked about the CPU on a machine with a GPU). Yields the
    state dict.

    The caller sets ``state["fn_profiled"] = True`` once its ``fn`` ran under the profiler.
    """
    import warnings

    from .ch01_devices import fake_gpus

    with ExitStack() as stack:
        stack.enter_context(warnings.catch_warnings())
        warnings.simplefilter("ignore")  # the profiler's "CUDA is not available"
        stack.enter_context(fake_gpus(1))
        yield stack.enter_context(_watch(_new_state(), scripted=True, rows=rows))


def gpu_machine_hint(got: str, what: str, columns) -> str:
    """The hint for an answer that, asked about the CPU on a machine with a GPU, ranked by a
    device column: it chose by the machine, not by ``device``."""
    ranked = f", ranked by {', '.join(sorted(columns))}" if columns else ""
    return (
        f"on a machine with a GPU, asked about device cpu, for {what}, you returned "
        f"{got!r}{ranked}: CPU work has no device time there either. Choose the column (and "
        "ProfilerActivity.CUDA) by device.type, the device you were given, not by whether "
        "the machine has a GPU (torch.cuda.is_available())"
    )
