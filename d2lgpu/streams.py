"""Overlap of copies and compute: its arithmetic, its timeline, and where a trace shows it.

What it is for (chapter 8):

* :func:`pipeline_time`: how long ``n_batches`` of copy-then-compute take one
  after another (the sum of the stages) and pipelined (about the larger stage
  per batch, plus one of the smaller), from the two stage times;
* :func:`model_intervals`: the same schedule as intervals, to draw;
* :func:`format_timeline`: intervals as a text timeline, one row per lane
  (a stream, or an engine), so that overlap can be seen in a notebook's output;
* :func:`trace_intervals`: the GPU copies and kernels of a ``torch.profiler``
  Chrome trace, one lane per CUDA stream;
* :func:`overlap_s`: how long two sets of intervals were busy at the same time.

What it is not: a profiler or a timer. The measurements are made with CUDA
events, ``d2lgpu.benchmark`` and ``torch.profiler``; this module does arithmetic
on what they give.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import NamedTuple

from ._validate import check_int, check_seconds
from .timing import format_seconds

__all__ = [
    "Interval",
    "pipeline_time",
    "model_intervals",
    "format_timeline",
    "trace_intervals",
    "overlap_s",
]


class Interval(NamedTuple):
    """Work on one ``lane`` (a stream or an engine) from ``start`` to ``end``, in seconds."""

    lane: str
    label: str
    start: float
    end: float


def pipeline_time(copy_s, compute_s, n_batches, overlapped: bool = True) -> float:
    """Seconds for ``n_batches`` copies and computes, serial or with copy i+1 during compute i.

    Serial: ``n * (copy + compute)``. Overlapped, with one copy engine and one
    compute engine: the first copy, then ``n - 1`` steps of the slower stage,
    then the last compute: ``copy + (n - 1) * max(copy, compute) + compute``.
    """
    copy_s = check_seconds("copy_s", copy_s)
    compute_s = check_seconds("compute_s", compute_s)
    n = check_int("n_batches", n_batches, minimum=1)
    if not overlapped:
        return n * (copy_s + compute_s)
    return copy_s + (n - 1) * max(copy_s, compute_s) + compute_s


def model_intervals(copy_s, compute_s, n_batches, overlapped: bool = True) -> list[Interval]:
    """The schedule of :func:`pipeline_time`, as intervals on lanes ``copy`` and ``compute``.

    Batch ``i``'s copy and compute are labelled ``str(i)``.
    """
    copy_s = check_seconds("copy_s", copy_s)
    compute_s = check_seconds("compute_s", compute_s)
    n = check_int("n_batches", n_batches, minimum=1)
    out, copy_free, compute_free = [], 0.0, 0.0
    for i in range(n):
        start = copy_free if overlapped else compute_free
        out.append(Interval("copy", str(i), start, start + copy_s))
        copy_free = start + copy_s
        begin = max(copy_free, compute_free)
        out.append(Interval("compute", str(i), begin, begin + compute_s))
        compute_free = begin + compute_s
    return out


def format_timeline(intervals, width: int = 60) -> str:
    """Draw ``intervals`` as text: one row per lane, time from left to right.

    Each interval fills its columns with the last character of its label, so
    that batches ``0``, ``1``, ... can be told apart; an interval too short for
    one column still gets one. The first line gives the time span.
    """
    intervals = list(intervals)
    if not intervals or not all(isinstance(iv, Interval) for iv in intervals):
        raise ValueError("intervals must be a non-empty list of d2lgpu.streams.Interval")
    width = check_int("width", width, minimum=10)
    t0 = min(iv.start for iv in intervals)
    span = max(iv.end for iv in intervals) - t0
    scale = width / span if span > 0 else 0.0
    lanes = list(dict.fromkeys(iv.lane for iv in intervals))
    name_width = max(len(lane) for lane in lanes)
    rows = {lane: [" "] * width for lane in lanes}
    for iv in intervals:
        first = min(width - 1, round((iv.start - t0) * scale))
        last = max(first + 1, min(width, round((iv.end - t0) * scale)))
        for col in range(first, last):
            rows[iv.lane][col] = (iv.label or "#")[-1]
    header = f"{'':{name_width}}  0{format_seconds(span):>{width}}"
    return "\n".join([header] + [f"{lane:{name_width}} |{''.join(rows[lane])}|" for lane in lanes])


_GPU_CATEGORIES = {"kernel": "kernel", "gpu_memcpy": "copy", "gpu_memset": "memset"}


def trace_intervals(trace) -> list[Interval]:
    """The GPU work in a ``torch.profiler`` Chrome trace, one lane per CUDA stream.

    ``trace`` is the path of a file written by ``prof.export_chrome_trace(path)``
    or the JSON it holds, loaded. Kernels, copies and memsets become intervals
    on lane ``"stream N"``, labelled ``"kernel"``, ``"copy"`` or ``"memset"``
    and sorted by start; times are in seconds. A trace of CPU work only gives
    an empty list.
    """
    if isinstance(trace, str | Path):
        with open(trace) as f:
            trace = json.load(f)
    if not isinstance(trace, dict) or not isinstance(trace.get("traceEvents"), list):
        raise ValueError(
            "trace must be a Chrome trace (a path, or a dict with a 'traceEvents' list), "
            f"got {type(trace).__name__}"
        )
    out = []
    for event in trace["traceEvents"]:
        kind = _GPU_CATEGORIES.get(event.get("cat", "")) if isinstance(event, dict) else None
        if kind is None or event.get("ph") != "X":
            continue
        args = event.get("args") or {}
        stream = args.get("stream", event.get("tid"))
        start = float(event["ts"]) * 1e-6
        out.append(Interval(f"stream {stream}", kind, start, start + float(event["dur"]) * 1e-6))
    return sorted(out, key=lambda iv: (iv.start, iv.lane))


def _union(intervals) -> list[tuple[float, float]]:
    merged: list[list[float]] = []
    for start, end in sorted((iv.start, iv.end) for iv in intervals):
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    return [(a, b) for a, b in merged]


def overlap_s(a, b) -> float:
    """Seconds during which some interval of ``a`` and some interval of ``b`` both ran."""
    for name, value in (("a", a), ("b", b)):
        if not all(isinstance(iv, Interval) for iv in value):
            raise ValueError(f"{name} must be a list of d2lgpu.streams.Interval")
    total, ua, ub, i, j = 0.0, _union(a), _union(b), 0, 0
    while i < len(ua) and j < len(ub):
        total += max(0.0, min(ua[i][1], ub[j][1]) - max(ua[i][0], ub[j][0]))
        if ua[i][1] < ub[j][1]:
            i += 1
        else:
            j += 1
    return total
