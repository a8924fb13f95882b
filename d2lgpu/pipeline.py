"""Pipelines of model stages: micro-batches, who was busy when, and the idle bubble.

A model split into stages on several devices works like a production line:
stage ``k`` can work on micro-batch ``i`` while stage ``k + 1`` works on
micro-batch ``i - 1``. What it is for:

* :func:`micro_batches` splits a batch into ``min(count, len(x))`` non-empty
  micro-batches, in order, whose sizes differ by at most one;
* :class:`Timeline` records when each stage was busy with which micro-batch
  (a :class:`Span` each). It synchronizes the stage's device before it reads
  the clock, and may be used from several threads at once;
* :func:`bubble_fraction` is the share of the stages' time spent idle in a
  recorded run, and :func:`ideal_bubble` the share GPipe's schedule predicts
  for equal stages, ``(S - 1) / (M + S - 1)``;
* :func:`replay` moves a recorded run's spans as early as its schedule
  allows (same work, instant hand-offs): what the stages' work permits, apart
  from the time a busy machine added between the spans. Forward runs and
  training runs (forward and backward spans) alike;
* :func:`gpipe_order` and :func:`one_f_one_b_order` are two training
  schedules, as the order in which each stage runs its micro-batches' forwards
  (``("F", i)``) and backwards (``("B", i)``): every forward then every
  backward, or 1F1B's ``min(S - k - 1, M)`` forwards to warm up, then one
  forward and one backward in turn, then the last backwards;
  :func:`schedule_ticks` runs per-stage orders on an ideal clock, each action
  one tick as soon as what it needs is done.

What it is not: a pipeline-parallel library. The chapter's pipeline is plain
PyTorch, in the notebook; ``torch.distributed.pipelining`` is PyTorch's
library for pipelines across processes. The timeline plot is
:func:`d2lgpu.plotting.plot_timeline`.
"""

from __future__ import annotations

import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass

import torch

from ._validate import check_int
from .timing import sync

__all__ = [
    "Span",
    "Timeline",
    "bubble_fraction",
    "gpipe_order",
    "ideal_bubble",
    "micro_batches",
    "one_f_one_b_order",
    "replay",
    "schedule_ticks",
]


def micro_batches(x: torch.Tensor, count: int) -> tuple[torch.Tensor, ...]:
    """Split ``x`` along its first dimension into ``min(count, len(x))`` micro-batches.

    Views of ``x``, in order, none empty, sizes differing by at most one
    (``torch.tensor_split``): 10 rows in 4 give 3, 3, 2, 2; 3 rows in 4 give
    three of one row (``torch.chunk`` would give fewer than it could).
    """
    if not isinstance(x, torch.Tensor) or x.dim() == 0 or len(x) == 0:
        got = type(x).__name__ if not isinstance(x, torch.Tensor) else f"shape {tuple(x.shape)}"
        raise ValueError(f"x must be a tensor with at least one row, got {got}")
    check_int("count", count, minimum=1)
    return torch.tensor_split(x, min(count, len(x)))


@dataclass(frozen=True)
class Span:
    """Stage ``stage`` busy with ``micro_batch`` from ``start`` to ``end`` (seconds)."""

    stage: int
    micro_batch: int
    start: float
    end: float
    phase: str = "forward"

    @property
    def seconds(self) -> float:
        return self.end - self.start


class Timeline:
    """When each stage was busy: ``with timeline.record(stage, i, device): ...``.

    The block's end is read after synchronizing ``device``, so on a GPU a span
    covers the work itself, not its launch. Times are seconds since the
    timeline was made (or :meth:`reset`). ``spans`` lists every span, in the
    order they ended.
    """

    def __init__(self):
        self._lock = threading.Lock()
        self.reset()

    def reset(self) -> None:
        """Forget every span and start the clock again."""
        with self._lock:
            self.spans: list[Span] = []
            self._zero = time.perf_counter()

    @contextmanager
    def record(self, stage: int, micro_batch: int, device=None, phase: str = "forward"):
        check_int("stage", stage, minimum=0)
        check_int("micro_batch", micro_batch, minimum=0)
        if not isinstance(phase, str) or not phase:
            raise ValueError(f"phase must be a non-empty string, got {phase!r}")
        start = time.perf_counter()
        yield
        sync(device)  # a CPU-GPU sync point: the span ends when the device has finished
        end = time.perf_counter()
        with self._lock:
            self.spans.append(Span(stage, micro_batch, start - self._zero, end - self._zero, phase))

    @property
    def makespan(self) -> float:
        """Seconds from the first span's start to the last span's end."""
        return _makespan(self.spans)


def _makespan(spans) -> float:
    return max(s.end for s in spans) - min(s.start for s in spans)


def bubble_fraction(spans, n_stages: int) -> float:
    """The share of ``n_stages`` stages' time spent idle: ``1 - busy / (n_stages * makespan)``.

    ``busy`` is the total length of the spans, ``makespan`` the time from the
    first start to the last end. Stages that never overlap in time (a naive
    split) give at least ``1 - 1 / n_stages``.
    """
    spans = list(spans) if isinstance(spans, list | tuple) else []
    if not spans or not all(isinstance(s, Span) for s in spans):
        raise ValueError("spans must be a non-empty list of Span (Timeline.spans)")
    check_int("n_stages", n_stages, minimum=1)
    stages = {s.stage for s in spans}
    if max(stages) >= n_stages:
        raise ValueError(
            f"n_stages must be more than the largest stage index in spans ({max(stages)}), "
            f"got {n_stages}"
        )
    makespan = _makespan(spans)
    if makespan <= 0:
        raise ValueError("spans must cover some time (their makespan is 0)")
    return 1.0 - sum(s.seconds for s in spans) / (n_stages * makespan)


def ideal_bubble(n_stages: int, n_micro: int) -> float:
    """GPipe's idle share for ``n_stages`` equal stages and ``n_micro`` micro-batches.

    Each stage works ``n_micro`` of the ``n_micro + n_stages - 1`` time slots
    the schedule takes, so the idle share is ``(S - 1) / (M + S - 1)``.
    """
    check_int("n_stages", n_stages, minimum=1)
    check_int("n_micro", n_micro, minimum=1)
    return (n_stages - 1) / (n_micro + n_stages - 1)


def replay(spans) -> list[Span]:
    """A recorded run with instant hand-offs: each span as early as the schedule allows.

    Every span keeps its stage, micro-batch, phase and length, and each stage keeps the
    order it ran its spans in. A forward span starts as soon as its stage has finished
    its previous span and the stage before it has finished the same micro-batch's
    forward (stage 0 from the first recorded start); a backward span, once the stage
    after it has finished that micro-batch's backward (the last stage: once it has run
    that micro-batch's forward). What a measured bubble has above the replay's was added
    between the spans (queues, threads waiting to be woken or for a core), not by the
    schedule; the replay of equal forward spans has GPipe's bubble, :func:`ideal_bubble`.
    Returns the spans in order of stage, then start.
    """
    spans = list(spans) if isinstance(spans, list | tuple) else []
    if not spans or not all(isinstance(s, Span) for s in spans):
        raise ValueError("spans must be a non-empty list of Span (Timeline.spans)")
    if any(s.phase not in ("forward", "backward") for s in spans):
        phases = sorted({s.phase for s in spans} - {"forward", "backward"})
        raise ValueError(f"spans must be 'forward' or 'backward' spans, got phases {phases}")
    by_stage: dict[int, list[Span]] = {}
    for s in spans:
        by_stage.setdefault(s.stage, []).append(s)
    stages = sorted(by_stage)
    if stages != list(range(len(stages))):
        raise ValueError(f"spans must hold stages 0, 1, ... with none missing, got {stages}")
    for phase in ("forward", "backward"):
        batches = sorted(s.micro_batch for s in by_stage[0] if s.phase == phase)
        for k in stages:
            got = sorted(s.micro_batch for s in by_stage[k] if s.phase == phase)
            if got != batches or len(set(got)) != len(got):
                raise ValueError(
                    "spans must give every stage the same micro-batches, each once per phase: "
                    f"the {phase} spans of stage 0 have {batches}, of stage {k} {got}"
                )
    last = stages[-1]
    origin = min(s.start for s in spans)
    queues = {k: sorted(by_stage[k], key=lambda s: s.start) for k in stages}
    free = dict.fromkeys(stages, origin)
    done: dict[tuple, float] = {}  # (stage, phase, micro-batch) -> end in the replay
    out: list[Span] = []
    while any(queues.values()):
        moved = False
        for k in stages:
            while queues[k]:
                s = queues[k][0]
                if s.phase == "forward":
                    need = (k - 1, "forward", s.micro_batch) if k > 0 else None
                elif k == last:
                    need = (k, "forward", s.micro_batch)
                else:
                    need = (k + 1, "backward", s.micro_batch)
                if need is not None and need not in done:
                    break
                start = max(free[k], done[need] if need is not None else origin)
                free[k] = start + s.seconds
                done[(k, s.phase, s.micro_batch)] = free[k]
                out.append(Span(k, s.micro_batch, start, free[k], s.phase))
                queues[k].pop(0)
                moved = True
        if not moved:
            waiting = {k: (q[0].phase, q[0].micro_batch) for k, q in queues.items() if q}
            raise ValueError(f"spans must follow an order that can run: stuck at {waiting}")
    return sorted(out, key=lambda s: (s.stage, s.start))


def _check_sizes(n_stages, n_micro):
    check_int("n_stages", n_stages, minimum=1)
    check_int("n_micro", n_micro, minimum=1)


def gpipe_order(n_stages: int, n_micro: int) -> list[list[tuple[str, int]]]:
    """GPipe's training schedule: each stage runs every forward, then every backward.

    One list per stage of ``("F", i)`` and ``("B", i)``; each stage keeps all ``n_micro``
    micro-batches' activations at once, after its last forward.
    """
    _check_sizes(n_stages, n_micro)
    one = [("F", i) for i in range(n_micro)] + [("B", i) for i in range(n_micro)]
    return [list(one) for _ in range(n_stages)]


def one_f_one_b_order(n_stages: int, n_micro: int) -> list[list[tuple[str, int]]]:
    """1F1B's training schedule (PipeDream-Flush, ``Schedule1F1B``), one list per stage.

    Stage ``k`` (from 0) runs ``w = min(n_stages - k - 1, n_micro)`` forwards to warm up,
    then one forward and one backward in turn, then its last ``w`` backwards: it keeps at
    most ``min(n_stages - k, n_micro)`` micro-batches' activations at once.
    """
    _check_sizes(n_stages, n_micro)
    orders = []
    for k in range(n_stages):
        warm = min(n_stages - k - 1, n_micro)
        order = [("F", i) for i in range(warm)]
        for i in range(n_micro - warm):
            order += [("F", warm + i), ("B", i)]
        order += [("B", i) for i in range(n_micro - warm, n_micro)]
        orders.append(order)
    return orders


def schedule_ticks(orders, backward_ticks: int = 1) -> list[Span]:
    """Per-stage orders (:func:`gpipe_order`, ...) on an ideal clock, as spans in ticks.

    A forward takes one tick, a backward ``backward_ticks``; each stage runs its next
    action as soon as the stage is free and what it needs is done (the forward of the
    stage before, the backward of the stage after, or for the last stage its own
    forward). Hand-offs cost nothing. Raises ``ValueError`` if the orders cannot run.
    """
    check_int("backward_ticks", backward_ticks, minimum=1)
    if not isinstance(orders, list | tuple) or not orders:
        raise ValueError("orders must be a non-empty list of per-stage lists of ('F'|'B', i)")
    for k, order in enumerate(orders):
        if not all(
            isinstance(a, tuple) and len(a) == 2 and a[0] in ("F", "B") and isinstance(a[1], int)
            for a in order
        ):
            raise ValueError(f"orders[{k}] must be a list of ('F', i) and ('B', i), got {order!r}")
    phase = {"F": "forward", "B": "backward"}
    length = {"F": 1, "B": backward_ticks}
    spans = [
        Span(k, i, 0.0, float(length[a]), phase[a])
        for k, order in enumerate(orders)
        for a, i in order
    ]
    # Lay the actions one after another per stage (a valid recorded order), then replay.
    at = 0.0
    laid = []
    for s in spans:
        laid.append(Span(s.stage, s.micro_batch, at, at + s.seconds, s.phase))
        at += s.seconds
    return replay(laid)
