"""When backward ran and when each all-reduce ran in a hand-built DDP step, measured and drawn.

What it is for (the exercises of chapter 10): :func:`measure_steps` runs two ways of
averaging gradients on two gloo ranks, on one model: ``average_gradients(model)``, called
after ``backward`` (exercise 10.2), and a class ``OverlappedDDP(model, bucket_bytes)``
whose hooks launch the all-reduces during ``backward`` and whose ``finish()`` waits for
them (exercise 10.3). On rank 0 it records, with ``time.perf_counter``, when each
gradient was ready, when each ``dist.all_reduce`` was launched and when it completed
(its future's callback, for an asynchronous one), and when ``backward`` and the step
ended, for five steps after two warm-up steps, and keeps the step of median length. :func:`format_steps` draws both on one text timeline
(:func:`d2lgpu.streams.format_timeline`), a row for backward and a row for the
all-reduces of each, on a common time scale.

What it is not: a benchmark (one step, the median of five, on CPU cores that the two
ranks and gloo's threads share, so the rows differ from run to run and from a GPU's,
where NCCL's kernels run on a stream of their own) nor a check: exercises 10.2 and 10.3
grade the answers. An answer that is still the exercise's stub raises
``NotImplementedError``, as the stub does.
"""

from __future__ import annotations

import functools
import time

import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch import nn

from .ranks import run_ranks
from .streams import Interval, format_timeline

__all__ = ["measure_steps", "format_steps", "WIDTH", "LAYERS", "BATCH", "BUCKET_BYTES"]

WIDTH, LAYERS, BATCH = 512, 6, 256  # each weight is 1 MiB of float32
BUCKET_BYTES = 2**20  # so that each bucket holds one layer's weight and bias
WARM_UP_STEPS, TIMED_STEPS = 2, 5
ORDER = ("average_gradients", "OverlappedDDP")


def _model() -> nn.Module:
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(10)
        return nn.Sequential(*[nn.Linear(WIDTH, WIDTH) for _ in range(LAYERS)])


class _Recorder:
    """Times, on this rank, of the gradients' readiness and the all-reduces."""

    def __init__(self):
        self.start = 0.0
        self.ready: list[tuple[float, int]] = []  # (time, parameter index)
        self.launches: list[list] = []  # [launched, completed or None, last ready index]

    def clear(self) -> None:
        self.start = time.perf_counter()
        self.ready.clear()
        self.launches.clear()

    def watch(self, model: nn.Module) -> list:
        """Hooks registered before the answer's, so they run first: a gradient is ready."""
        return [
            p.register_post_accumulate_grad_hook(
                lambda p, k=k: self.ready.append((time.perf_counter(), k))
            )
            for k, p in enumerate(model.parameters())
        ]

    def all_reduce(self, real):
        @functools.wraps(real)
        def all_reduce(tensor, *args, **kwargs):
            entry = [time.perf_counter(), None, self.ready[-1][1] if self.ready else None]
            self.launches.append(entry)
            work = real(tensor, *args, **kwargs)
            if work is None:  # a blocking all-reduce: done when it returns
                entry[1] = time.perf_counter()
                return work
            try:
                work.get_future().then(lambda fut: entry.__setitem__(1, time.perf_counter()))
            except (AttributeError, RuntimeError):  # no future here: its end is not known
                pass
            return work

        return all_reduce


def _one_way(rank_answer, name, bucket_bytes, x, y) -> dict:
    model = _model()
    rec = _Recorder()
    handles = rec.watch(model)
    real = dist.all_reduce
    dist.all_reduce = rec.all_reduce(real)
    try:
        ddp = rank_answer(model, bucket_bytes) if name == "OverlappedDDP" else None
        steps = []
        for step in range(WARM_UP_STEPS + TIMED_STEPS):
            model.zero_grad(set_to_none=True)
            loss = F.mse_loss(model(x), y)
            dist.barrier()  # both ranks start backward together
            rec.clear()
            loss.backward()
            backward_end = time.perf_counter()
            if ddp is None:
                rank_answer(model)
            else:
                ddp.finish()
            end = time.perf_counter()
            if step >= WARM_UP_STEPS:
                steps.append(_record(rec, backward_end, end))
    finally:
        dist.all_reduce = real
        for h in handles:
            h.remove()
    steps.sort(key=lambda r: r["step"])
    return steps[len(steps) // 2]  # the median step: a busy machine slows some steps


def _record(rec: _Recorder, backward_end: float, end: float) -> dict:
    shift = rec.start
    return {
        "backward": backward_end - shift,
        "step": end - shift,
        "ready": [(t - shift, k) for t, k in rec.ready],
        "all_reduces": [
            (a - shift, None if b is None else b - shift, k) for a, b, k in rec.launches
        ],
    }


def _job(average_gradients, overlapped_ddp, bucket_bytes, rank, world):
    gen = torch.Generator().manual_seed(20 + rank)
    x, y = torch.randn(BATCH, WIDTH, generator=gen), torch.randn(BATCH, WIDTH, generator=gen)
    try:
        return {
            "average_gradients": _one_way(average_gradients, ORDER[0], bucket_bytes, x, y),
            "OverlappedDDP": _one_way(overlapped_ddp, ORDER[1], bucket_bytes, x, y),
        }
    except NotImplementedError as error:
        return {"stub": str(error) or "NotImplementedError"}


def measure_steps(average_gradients, overlapped_ddp, bucket_bytes: int = BUCKET_BYTES) -> dict:
    """The median of five steps of each way of averaging, on two gloo ranks; rank 0's record.

    ``{"average_gradients": record, "OverlappedDDP": record}``, each record with
    ``backward`` and ``step`` (seconds from the start of ``backward``), ``ready``
    (``(seconds, parameter index)`` per gradient, in the order they were ready) and
    ``all_reduces`` (``(launched, completed, parameter index of the last gradient ready
    at the launch)``, times in seconds; ``completed`` is None where it is not known).
    """
    if not callable(average_gradients) or not callable(overlapped_ddp):
        raise TypeError(
            "average_gradients must be a function and overlapped_ddp a class (exercises "
            f"10.2 and 10.3), got {average_gradients!r} and {overlapped_ddp!r}"
        )
    if not isinstance(bucket_bytes, int) or isinstance(bucket_bytes, bool) or bucket_bytes < 1:
        raise ValueError(f"bucket_bytes must be a positive int, got {bucket_bytes!r}")
    job = functools.partial(_job, average_gradients, overlapped_ddp, bucket_bytes)
    record = run_ranks(job, 2)[0]
    if "stub" in record:
        raise NotImplementedError(record["stub"])
    return record


def _layer(index) -> str:
    return "." if index is None else str(index // 2)  # a weight and a bias per layer


def format_steps(records: dict, width: int = 72) -> str:
    """Draw :func:`measure_steps`' records: for each way, a row for backward (a digit per
    layer whose gradients it computed) and a row for the all-reduces (the layer whose
    gradient was the last ready when it was launched; ``=`` after backward returned)."""
    missing = [name for name in ORDER if name not in records]
    if missing:
        raise ValueError(
            f"records must hold {list(ORDER)}, as measure_steps returns; missing {missing}"
        )
    intervals, lines = [], []
    for name in ORDER:
        r = records[name]
        t = 0.0
        for ready, k in r["ready"]:
            intervals.append(Interval(f"{name}: backward", _layer(k), t, max(ready, t)))
            t = ready
        for launched, done, k in r["all_reduces"]:
            end = r["step"] if done is None else done
            label = "=" if launched >= r["backward"] else _layer(k)
            intervals.append(Interval(f"{name}: all-reduce", label, launched, max(end, launched)))
        during = sum(1 for launched, _, _ in r["all_reduces"] if launched < r["backward"])
        lines.append(
            f"{name}: step {r['step'] * 1e3:.1f} ms, backward {r['backward'] * 1e3:.1f} ms; "
            f"{during} of {len(r['all_reduces'])} all-reduces launched before backward returned"
        )
    return format_timeline(intervals, width) + "\n" + "\n".join(lines)
