"""``08.copy_back``'s simulated run: the answer on the simulated GPU, and what it did there.

:func:`simulate` runs ``pipelined_to_host`` on the simulated GPU of
:mod:`d2lgpu.stream_sim` with ``n`` pinned batches and two pinned buffers; its
:class:`Run` records, besides the simulator's own records, every ``consume`` call (which
buffer, what it held, whether the host knew its copy had landed), every host wait and the
host tensor each copy back wrote, the thread of each ``consume`` call and the device of
every tensor ``compute`` got. :func:`best_s` and :func:`serial_s` are the timings
that the overlap is judged against.

What it is not: the checker; :mod:`d2lgpu.checks.ch08_copy_back` holds the rules and hints.
"""

from __future__ import annotations

import threading

import torch

from ..stream_sim import simulated_cuda
from ._ch08_results import buffers_alive, kept_after, list_changed
from ._ch08_rules import caller_stream, check_stream_kept, device_seen, in_pool
from ._kit_calls import autocasts_asked

__all__ = [
    "RUNS",
    "FLOAT64_RUN",
    "ON_CALLER_STREAM",
    "N_BUFFERS",
    "Run",
    "ops",
    "reference_compute",
    "simulate",
    "best_s",
    "serial_s",
]

# batches, seconds of a copy to the device, of a compute, of a copy back to the host
# (33: more batches than a periodic wait's usual 8, 16 or 32; 5, FLOAT64_RUN: in float64,
# results copied back as compute made them)
RUNS = (
    (6, 1e-3, 1e-3, 1e-3),
    (1, 1e-3, 1e-3, 1e-3),
    (4, 0.5e-3, 1e-3, 2e-3),
    (33, 1e-3, 1e-3, 1e-3),
    (5, 1e-3, 1e-3, 1e-3),
)
FLOAT64_RUN = 5
# and one called inside `with torch.cuda.stream(s)`: the current stream is not the default
ON_CALLER_STREAM = (3, 1e-3, 1e-3, 1e-3)
N_BUFFERS = 2
ROWS, COLS = 5, 4


def reference_compute(x: torch.Tensor) -> torch.Tensor:
    """The simulated runs' compute: a different number per row of every batch."""
    return (x * 1.5).sin().sum(dim=1)


def best_s(n: int, h2d_s: float, compute_s: float, d2h_s: float) -> float:
    """Seconds for ``n`` batches when the three stages overlap: the first copy in, ``n - 1``
    steps of the slowest stage, the last compute and the last copy back."""
    return h2d_s + (n - 1) * max(h2d_s, compute_s, d2h_s) + compute_s + d2h_s


def serial_s(n: int, h2d_s: float, compute_s: float, d2h_s: float) -> float:
    """Seconds for ``n`` batches one stage after another."""
    return n * (h2d_s + compute_s + d2h_s)


class Run:
    """What one simulated run recorded, besides the simulator's own records."""

    def __init__(self, gpu, buffers):
        self.gpu, self.buffers = gpu, buffers
        self.consumed: list[dict] = []  # one per consume call, in order
        self.waits: list[tuple[str, dict, int]] = []  # (why, what it covers, ops queued before)
        self.targets: dict[int, torch.Tensor] = {}  # copy back's op id -> the host tensor
        self.thread = threading.get_ident()  # the caller's: consume is called on it
        self.devices: list[torch.device] = []  # of each device tensor compute got
        self.end_s = 0.0
        self.kept: list[torch.Tensor] = []  # device tensors still alive after the call
        self.buffers_changed = False  # the list of buffers given, changed by the call
        self.batches_changed = False  # and the list of batches
        self.autocasts: list = []  # the autocast regions asked for in the call
        self.returned: str | None = None  # the type's name of what the call returned, if not None
        real_wait, real_landing = gpu.host_wait, gpu.landing

        def host_wait(follows, why):
            self.waits.append((why, dict(follows), len(gpu.ops)))
            real_wait(follows, why)

        def landing(t, copy, data):
            self.targets[copy.id] = t
            real_landing(t, copy, data)

        gpu.host_wait, gpu.landing = host_wait, landing

    def buffer_index(self, t) -> int | None:
        """Which of the buffers ``t`` is (or is a view of); None if none."""
        if not isinstance(t, torch.Tensor):
            return None
        with torch._C.DisableTorchFunction():
            ptr = t.untyped_storage().data_ptr()
            for j, b in enumerate(self.buffers):
                if t is b or b.untyped_storage().data_ptr() == ptr:
                    return j
        return None

    def consume(self, i, t) -> None:
        gpu = self.gpu
        entry = {"index": i, "queued": len(gpu.ops), "buffer": self.buffer_index(t)}
        entry["thread"] = threading.get_ident()
        entry["on_device"] = isinstance(t, torch.Tensor) and gpu.buffer(t) is not None
        if entry["buffer"] is not None:
            j = entry["buffer"]
            copies = [op_id for op_id, dst in self.targets.items() if self.buffer_index(dst) == j]
            copy = gpu.ops[max(copies)] if copies else None
            entry["landed"] = copy is None or gpu.after(copy, gpu.host_follows)
            gpu.host_access(t)  # the host reads it: the copy lands here if the host knows it did
            with torch._C.DisableTorchFunction():
                entry["value"] = t.detach().clone()
        self.consumed.append(entry)


def simulate(answer, n: int, h2d_s: float, compute_s: float, d2h_s: float, on_caller_stream=False,
             pool: list | None = None, device: torch.device | None = None,
             dtype: torch.dtype = torch.float32):  # fmt: skip
    """Run ``answer`` on a simulated GPU with ``n`` pinned host batches and two pinned
    buffers of one result each; return ``(run, host_batches)``. With ``on_caller_stream``
    the call is made inside ``with torch.cuda.stream(s)`` (:func:`._ch08_rules.caller_stream`).
    The batches are ``pool``'s tensors (made as needed) with this run's values: runs that
    share a pool reuse host memory, as a loader's pinned buffers do. ``device`` is the GPU
    passed to the answer (the current one, ``cuda:0``, unless given); ``dtype``, the
    batches' and the buffers'."""
    gen = torch.Generator().manual_seed(180 + n)
    host = [torch.randn(ROWS, COLS, generator=gen, dtype=dtype) for _ in range(n)]
    reused = in_pool(host, pool)
    with (
        simulated_cuda(h2d_s, compute_s, d2h_s=d2h_s) as gpu,
        caller_stream(gpu, on_caller_stream),
    ):
        # pinned beforehand, as DataLoader(pin_memory=True) gives them: no host time here
        batches = [gpu.name_batch(b, i, pinned=True) for i, b in enumerate(reused)]
        # pinned beforehand too, for the whole run; NaN until a copy fills them
        buffers = [torch.full((ROWS,), float("nan"), dtype=dtype, pin_memory=True)
                   for _ in range(N_BUFFERS)]  # fmt: skip
        gpu.host_work.clear()  # the run's own buffers: not the answer's pinned memory
        run = Run(gpu, buffers)
        gpu.device = gpu.device if device is None else device
        compute = device_seen(gpu.kernel(reference_compute), run.devices)
        given, before = list(buffers), {id(t) for t in buffers_alive(gpu)}
        at_call, lent = gpu.current, list(batches)
        with autocasts_asked() as run.autocasts:
            returned = answer(batches, compute, gpu.device, given, run.consume)
        check_stream_kept(gpu, at_call)
        run.batches_changed = list_changed(lent, batches)
        del lent
        run.end_s = max([gpu.host_time] + [op.end for op in gpu.ops])
        del batches
        run.returned = None if returned is None else type(returned).__name__
        del returned  # what it returned is the caller's to drop: not counted as kept
        run.kept = kept_after(gpu, before, buffers)
        run.buffers_changed = list_changed(buffers, given)
    return run, host


def ops(gpu, kind, direction=None):
    """The answer's computes (``"kernel"``), or its copies (``"copy"``) in ``direction``."""
    found = [op for op in gpu.ops if op.kind == kind]
    if kind == "kernel":
        return [op for op in found if op.label.startswith("compute")]
    return [op for op in found if op.flags.get("direction") == direction]
