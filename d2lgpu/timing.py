"""Timing GPU and CPU code correctly.

GPU work is asynchronous: a CUDA call returns as soon as the kernel is queued,
so a clock read right after it measures the launch, not the work. Every
helper here synchronizes the device before it reads a clock.

What it is for:

* :func:`sync` waits for a device to finish its queued work.
* :class:`Timer` is d2l's stopwatch, made honest: ``stop()`` synchronizes
  before it reads the clock (d2l's ``Timer`` does not, and under-reports GPU
  work by up to ~100x).
* :func:`benchmark` times a function properly: warm-up calls, then repeated
  measurements by ``torch.utils.benchmark`` (which synchronizes CUDA itself),
  using all CPU threads (``torch.utils.benchmark`` defaults to one). On one CPU
  thread it can read that thread's CPU time instead of the wall clock, which
  does not count the time the OS gives the core to other programs.
* :func:`compare` renders a few results as a small table. It, the result
  (:class:`BenchmarkResult`) and :func:`format_seconds` live in
  :mod:`d2lgpu._timings`.

What it is not: a profiler. To see *where* time goes, use ``torch.profiler``
(chapter 6).
"""

from __future__ import annotations

import functools
import logging
import time

import torch

from ._timings import BenchmarkResult, compare, format_seconds
from ._validate import check_int, check_positive
from .devices import mps_available

__all__ = [
    "sync",
    "Timer",
    "BenchmarkResult",
    "benchmark",
    "compare",
    "format_seconds",
]


def sync(device=None) -> None:
    """Wait until ``device`` has finished all queued work.

    ``device`` may be a ``torch.device``, a string, or ``None``. ``None``
    synchronizes CUDA only if this process has already used it (so it never
    initializes CUDA by itself), and Apple silicon's ``mps`` where it is
    available; a CPU device needs no synchronization.
    """
    if device is None:
        if torch.cuda.is_available() and torch.cuda.is_initialized():
            torch.cuda.synchronize()
        if mps_available():
            torch.mps.synchronize()
        return
    device = torch.device(device)
    if device.type == "cuda":
        torch.cuda.synchronize(device)
    elif device.type == "mps":
        torch.mps.synchronize()


class Timer:
    """A stopwatch that synchronizes ``device`` before every clock read.

    >>> timer = Timer(device)
    >>> timer.start(); y = x @ x; seconds = timer.stop()

    ``times`` keeps every interval in seconds; ``sum()``, ``avg()`` and
    ``cumsum()`` summarize them.
    """

    def __init__(self, device=None):
        self.device = device
        self.times: list[float] = []
        self._start: float | None = None

    def start(self) -> Timer:
        # Work queued before start() must not be charged to this interval.
        sync(self.device)
        self._start = time.perf_counter()
        return self

    def stop(self) -> float:
        """Synchronize, record the interval since ``start()`` and return it."""
        if self._start is None:
            raise RuntimeError("Timer.stop() called before Timer.start()")
        sync(self.device)  # wait for the queued work, or we time the launch only
        self.times.append(time.perf_counter() - self._start)
        self._start = None
        return self.times[-1]

    def sum(self) -> float:
        return sum(self.times)

    def avg(self) -> float:
        return self.sum() / len(self.times) if self.times else 0.0

    def cumsum(self) -> list[float]:
        out, total = [], 0.0
        for t in self.times:
            total += t
            out.append(total)
        return out

    def __enter__(self) -> Timer:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def benchmark(
    fn,
    *args,
    device=None,
    warmup: int = 2,
    repeat: int = 7,
    number: int | None = None,
    min_sample_s: float = 0.01,
    label: str | None = None,
    threads: int | None = None,
    clock: str = "wall",
    **kwargs,
) -> BenchmarkResult:
    """Time ``fn(*args, **kwargs)`` and return seconds per call.

    The function is called ``warmup`` times first (to pay for CUDA context
    creation, cuBLAS handles, autotuning and caches outside the measurement),
    then ``repeat`` measurements of ``number`` calls each are taken with
    ``torch.utils.benchmark.Timer``, which synchronizes CUDA around every
    measurement. When ``number`` is ``None`` it is chosen so that one
    measurement lasts at least ``min_sample_s``.

    ``device`` is recorded in the result and synchronized after warm-up (and,
    on ``mps``, before every clock read); the function itself decides where
    it runs. CPU timings use
    ``torch.get_num_threads()`` threads unless ``threads`` says otherwise.

    ``clock="wall"`` (the default) reads ``time.perf_counter``. ``clock="thread"`` reads
    the calling thread's CPU time (``time.thread_time``) instead: on a CPU shared with
    other programs, the time the OS gives the core to them is not counted, while cache
    misses and memory stalls, which are the work's own, still are. It counts nothing
    done by another thread or by a GPU, so it needs ``device="cpu"`` and ``threads=1``.
    Where that clock moves in coarse steps (Windows), a sample lasts at least 20 of them
    when ``number`` is chosen here; a ``number`` you give must make samples that long.
    """
    tbench = _import_torch_benchmark()
    if not callable(fn):
        raise TypeError(f"fn must be callable, got {type(fn).__name__}")
    check_int("warmup", warmup, minimum=0)
    check_int("repeat", repeat, minimum=1)
    check_int("number", number, minimum=1, allow_none=True)
    check_int("threads", threads, minimum=1, allow_none=True)
    check_positive("min_sample_s", min_sample_s)
    threads = torch.get_num_threads() if threads is None else threads
    _check_clock(clock, device, threads)

    for _ in range(warmup):
        fn(*args, **kwargs)
    sync(device)

    label = label or str(getattr(fn, "__name__", "fn"))

    def timer_on(clock):
        return tbench.Timer(
            stmt="fn(*args, **kwargs)",
            globals={"fn": fn, "args": args, "kwargs": kwargs},
            num_threads=threads,
            label=label,
            **_clock_for(device, clock),
        )

    timer = timer_on(clock)
    if number is None:
        # One timed call tells us how many calls fill a sample.
        if clock == "wall":
            once = timer.timeit(1).median
        else:
            # Counted on the wall clock: the thread's CPU clock can move in steps longer
            # than a call (a 15.6 ms tick on Windows), and a sample must last many of them.
            once = timer_on("wall").timeit(1).median
            min_sample_s = max(min_sample_s, 20 * _thread_clock_step())
        number = max(1, min(10_000, int(min_sample_s / max(once, 1e-9))))
    samples = [timer.timeit(number).median for _ in range(repeat)]
    return BenchmarkResult(
        label=label,
        samples=samples,
        number=number,
        device=str(device) if device is not None else "unspecified",
        threads=threads,
        clock=clock,
    )


def _check_clock(clock, device, threads: int) -> None:
    if clock not in ("wall", "thread"):
        raise ValueError(f"clock must be 'wall' or 'thread', got {clock!r}")
    on_cpu = device is not None and torch.device(device).type == "cpu"
    if clock == "thread" and not (on_cpu and threads == 1):
        raise ValueError(
            "clock='thread' counts only the calling thread's CPU time, so it needs "
            f"device='cpu' and threads=1; got device={device!r}, threads={threads}"
        )


@functools.cache
def _thread_clock_step() -> float:
    """The smallest step ``time.thread_time()`` makes in this process: well under a
    microsecond on Linux and macOS, a scheduler tick (15.6 ms) on Windows."""
    start = time.thread_time()
    while (now := time.thread_time()) == start:
        pass
    return now - start


def _clock_for(device, clock: str = "wall") -> dict:
    """``torch.utils.benchmark.Timer``'s clock: the calling thread's CPU time for
    ``clock="thread"``; else the wall clock. ``torch.utils.benchmark`` synchronizes CUDA by
    itself, not ``mps``, so on ``mps`` every clock read waits for the queued work."""
    if clock == "thread":
        return {"timer": time.thread_time}
    if device is None or torch.device(device).type != "mps":
        return {}

    def synchronized_clock() -> float:
        torch.mps.synchronize()  # a CPU-GPU sync point, before every clock read
        return time.perf_counter()

    return {"timer": synchronized_clock}


def _import_torch_benchmark():
    # torch.utils.benchmark imports torch.utils.cpp_extension, which logs a
    # warning ("No CUDA runtime is found") on machines that have a CUDA
    # toolkit but no GPU. It is noise for timing; hide that one logger's
    # warning during the import only.
    logger = logging.getLogger("torch.utils.cpp_extension")
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        from torch.utils import benchmark
    finally:
        logger.setLevel(level)
    return benchmark
