"""Checkers of chapter 2: ``02.time_fn``, ``02.frobenius`` and ``02.concurrency``.

None of them needs a GPU, because each checks *when* things happen rather than
how fast they are:

* ``02.time_fn``: the answer ``time_fn(work, sync, clock, repeats)`` times a
  :class:`FakeAsyncDevice`, a simulated asynchronous device whose ``work()``
  returns at once while its job runs on in (simulated) time, whose ``sync()``
  waits for the job, and whose ``clock()`` the checker controls. A timer that
  forgets to sync measures only the launch, and one that reads the clock
  before warming up is seen in the log of calls.
* ``02.frobenius``: the answer runs with ``A`` on a GPU, a pretend one
  (:mod:`._pretend`) when there is none: host reads of device data
  (``.item()``, ``.tolist()``, ``.cpu()``, ``float()``, ``print``,
  ``torch.tensor`` of a list of device tensors, a device value written into a
  CPU tensor) are counted, and a tensor made on the CPU and mixed with ``A``'s
  is named; on CUDA, ``torch.cuda.set_sync_debug_mode`` also counts the real
  synchronizations.
* ``02.concurrency``: the answer submits two products to two *lanes* (anything
  with ``submit(fn, *args) -> future``, like a ``ThreadPoolExecutor``); the
  checker's :class:`LoggingLane` records every launch and every wait.
"""

from __future__ import annotations

import math
import warnings
from concurrent.futures import Future
from contextlib import contextmanager

import torch

from ._pretend import watching
from ._util import CheckFailed, one_cpu_thread

__all__ = [
    "FakeAsyncDevice",
    "LoggingLane",
    "frobenius_reference",
    "check_time_fn",
    "check_frobenius",
    "check_concurrency",
]


# ---------------------------------------------------------------------------------------------
# 02.time_fn


class FakeAsyncDevice:
    """A simulated asynchronous device with a clock the checker controls.

    ``work()`` queues a job and returns after ``launch_s``, like a CUDA kernel
    launch; the very first job also pays ``cold_s`` (context creation, library
    handles). Job ``k`` takes ``seconds * pattern[k % len(pattern)]``: the
    default pattern has a fast call (x0.8) and a slow one (x5, a noisy
    neighbour) in every four, so the median is ``seconds`` while the mean, the
    minimum and the maximum are not. ``sync()`` advances the clock to the end
    of the queued work; ``clock()`` reads it. ``log`` lists the calls in order
    and ``durations`` the length of every job.
    """

    def __init__(self, seconds, launch_s=10e-6, cold_s=0.1, pattern=(1.0, 0.8, 1.0, 5.0)):
        self.seconds, self.launch_s, self.cold_s, self.pattern = seconds, launch_s, cold_s, pattern
        self.now = 1000.0  # an arbitrary origin: only differences mean anything
        self.busy_until = self.now
        self.durations: list[float] = []
        self.log: list[str] = []

    def work(self) -> None:
        self.log.append("work")
        k = len(self.durations)
        duration = self.seconds * self.pattern[k % len(self.pattern)]
        self.durations.append(duration)
        if k == 0:
            duration += self.cold_s
        self.busy_until = max(self.now, self.busy_until) + duration
        self.now += self.launch_s

    def sync(self) -> None:
        self.log.append("sync")
        self.now = max(self.now, self.busy_until)

    def clock(self) -> float:
        self.log.append("clock")
        return self.now


def _fmt(seconds: float) -> str:
    return f"{seconds * 1e3:.3g} ms" if seconds >= 1e-3 else f"{seconds * 1e6:.3g} us"


def _as_seconds(result) -> float:
    if isinstance(result, torch.Tensor) and result.numel() == 1:
        result = result.item()
    if isinstance(result, bool) or not isinstance(result, int | float):
        raise CheckFailed(
            f"time_fn returned a {type(result).__name__}: return the median seconds per call "
            "as one float (statistics.median of the list of times)"
        )
    result = float(result)
    if not math.isfinite(result) or result <= 0:
        raise CheckFailed(
            f"time_fn returned {result}: a time must be a finite number > 0; check that the "
            "list of times is not empty and that each time is end - start of one call"
        )
    return result


def _check_log(log: list[str], repeats: int) -> None:
    """The order of the calls: warm-up and sync before timing, then clock-work-sync-clock."""
    if "clock" not in log:
        raise CheckFailed(
            "time_fn never called clock(): read the time with the clock you were given "
            "(the checker's simulated device keeps its own time, which time.perf_counter() "
            "cannot see)"
        )
    first_clock = log.index("clock")
    if "work" not in log[:first_clock]:
        raise CheckFailed(
            "the first clock read came before any warm-up call: call work() once and sync() "
            "before you start measuring; the first call pays one-off costs (CUDA context, "
            "library handles, caches) that are not part of the work's time"
        )
    last_warmup = max(i for i in range(first_clock) if log[i] == "work")
    if "sync" not in log[last_warmup:first_clock]:
        raise CheckFailed(
            "after the warm-up call, call sync() before the first clock read: otherwise the "
            "first measurement also waits for the warm-up work"
        )
    measured = log[first_clock:].count("work")
    if measured != repeats:
        raise CheckFailed(
            f"time_fn called work() {measured} times after its first clock read, for "
            f"repeats={repeats}: time exactly `repeats` calls, one per measurement (use the "
            "argument, not a fixed number)"
        )
    # Between two clock reads: at most one work(), and a sync() after it.
    between: list[str] = []
    for event in log[first_clock + 1 :] + ["clock"]:
        if event != "clock":
            between.append(event)
            continue
        if between.count("work") > 1:
            raise CheckFailed(
                f"time_fn called work() {between.count('work')} times between two clock "
                "reads: time each call on its own (start = clock(); work(); sync(); "
                "clock() - start) and return the median of those times"
            )
        if "work" in between and "sync" not in between[between.index("work") :]:
            raise CheckFailed(
                "a clock read followed work() with no sync() in between: work() only queues "
                "the job and returns, so the clock measured the launch (or, with sync() "
                "before work(), the previous call): call sync() after work() and before the "
                "clock read that ends each measurement"
            )
        between = []


def _run_timer(answer, device: FakeAsyncDevice, repeats: int) -> float:
    result = _as_seconds(answer(device.work, device.sync, device.clock, repeats))
    _check_log(device.log, repeats)
    return result


def _statistic_hint(got: float, times: list[float]) -> str | None:
    """Name the statistic or unit that ``got`` is, if it is a wrong one."""
    import statistics

    median = statistics.median(times)
    candidates = [
        (
            "the mean",
            statistics.fmean(times),
            "return the median (statistics.median), which a few slow calls do not move",
        ),
        (
            "the fastest call (min)",
            min(times),
            "return the median: the minimum hides how long a typical call takes",
        ),
        ("the slowest call (max)", max(times), "return the median"),
        ("the sum of all calls", sum(times), "return the median time of one call"),
        (
            "the median in milliseconds",
            median * 1e3,
            "return seconds (the clock's unit): do not multiply by 1000",
        ),
        ("the median in microseconds", median * 1e6, "return seconds (the clock's unit)"),
    ]
    for what, value, fix in candidates:
        if abs(value - median) > 0.05 * median and abs(got - value) <= 0.02 * value:
            return f"time_fn returned {got:.6g}, which is {what} of the calls: {fix}"
    return None


def check_time_fn(answer, passed):
    """``time_fn(work, sync, clock, repeats)`` against a simulated asynchronous device."""
    if not callable(answer):
        raise CheckFailed("pass the function itself: check('02.time_fn', time_fn)")
    job = 2e-3
    device = FakeAsyncDevice(job)
    got = _run_timer(answer, device, repeats=5)
    passed.append(
        "warm-up: work() and sync() ran before the first clock read; then exactly `repeats` "
        "calls, each between two clock reads with a sync() after it"
    )
    measured = device.durations[-5:]
    hint = _statistic_hint(got, measured)
    if hint:
        raise CheckFailed(hint)
    if got < 0.25 * job:
        raise CheckFailed(
            f"time_fn returned {_fmt(got)} for work that takes {_fmt(job)} (its launch takes "
            f"{_fmt(device.launch_s)}): work() only queues the job and returns; call sync() "
            "after work() and before the clock read that ends each measurement"
        )
    if abs(got - job) > 0.05 * job:
        raise CheckFailed(
            f"time_fn returned {_fmt(got)} for calls whose median is {_fmt(job)} (one in four "
            f"takes {_fmt(job * 5)}, one {_fmt(job * 0.8)}): return the median of the "
            "per-call times, in seconds"
        )
    passed.append(
        "a 2 ms asynchronous job measures 2 ms, not its 10 us launch: time_fn syncs before "
        "reading the clock"
    )
    passed.append("one fast and one slow call in four do not move the result: it is the median")
    for job, repeats in ((30e-3, 3), (5e-3, 2), (7e-3, 1)):
        steady = FakeAsyncDevice(job, pattern=(1.0,)) if repeats < 3 else FakeAsyncDevice(job)
        got = _run_timer(answer, steady, repeats=repeats)
        if abs(got - job) > 0.05 * job:
            raise CheckFailed(
                f"with a {_fmt(job)} job and repeats={repeats}, time_fn returned {_fmt(got)}: "
                "sync after each work() (not before it), and use the arguments you are "
                "given, nothing fixed"
            )
    passed.append("30 ms, 5 ms and 7 ms jobs measure right with repeats=3, 2 and 1")


# ---------------------------------------------------------------------------------------------
# 02.frobenius


@contextmanager
def _cuda_sync_counter(device: torch.device):
    """Count the synchronizing CUDA calls (``set_sync_debug_mode``); yields a list of messages."""
    found: list[str] = []
    if device.type != "cuda":
        yield found
        return
    previous = torch.cuda.get_sync_debug_mode()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        torch.cuda.set_sync_debug_mode("warn")
        try:
            yield found
        finally:
            torch.cuda.set_sync_debug_mode(previous)
    found += [str(w.message) for w in caught if "synchroniz" in str(w.message)]


def frobenius_reference(A: torch.Tensor, steps: int) -> list[float]:
    """The exercise's norms: X = I; each step X = A @ X, log ||X||_F, X = X / ||X||_F."""
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    norms = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        norms.append(norm)
        X = X / norm
    return torch.stack(norms).tolist()


def _norms(fn, name, A, steps, pretend):
    """Run ``fn(A, steps)`` with A on the (pretend) GPU; validate what it returns."""
    with watching(pretend) as watch:
        try:
            result = fn(watch.put(A), steps)
        except RuntimeError:
            if not watch.mixed:
                raise
            result = None  # a real GPU refused to mix devices: reported below
    if watch.mixed:
        raise CheckFailed(
            f"{name}: {watch.mixed[0]} while A is on the GPU; a GPU refuses to mix them. "
            "Make every tensor on A's device: torch.eye(n, device=A.device), "
            "torch.empty(steps, device=A.device), or x.to(A.device)"
        )
    if isinstance(result, torch.Tensor):
        raise CheckFailed(
            f"{name} returned a tensor: return the norms as a list of Python floats "
            "(tensor.tolist() makes one)"
        )
    if not isinstance(result, list | tuple):
        raise CheckFailed(f"{name} returned a {type(result).__name__}: return a list of floats")
    if len(result) != steps:
        raise CheckFailed(f"{name}(A, {steps}) returned {len(result)} norms: log one norm per step")
    for i, value in enumerate(result):
        if isinstance(value, torch.Tensor):
            raise CheckFailed(
                f"{name}: norm {i} is still a tensor: transfer the norms to the host as "
                "Python floats"
            )
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise CheckFailed(f"{name}: norm {i} is a {type(value).__name__}, not a float")
    bad = next((i for i, v in enumerate(result) if not math.isfinite(v)), None)
    if bad is not None:
        raise CheckFailed(
            f"{name}: the norm after step {bad + 1} is {result[bad]}: the product overflowed "
            "float32. Divide X by its norm after logging it (X = X / norm), so every step "
            "starts from a matrix of norm 1"
        )
    return [float(v) for v in result], watch.reads


def _shown(reads: list[str]) -> str:
    counts = {r: reads.count(r) for r in dict.fromkeys(reads)}
    return ", ".join(f"{n} x {r}" for r, n in counts.items())


def check_frobenius(answer, passed):
    """Per-step and at-the-end logging of 1000 Frobenius norms: same values, different reads."""

    if (
        not isinstance(answer, tuple | list)
        or len(answer) != 2
        or not all(callable(f) for f in answer)
    ):
        raise CheckFailed(
            "pass both functions as a pair: "
            "check('02.frobenius', (log_norms_per_step, log_norms_at_end))"
        )
    one_cpu_thread(_check_frobenius)(*answer, passed)


def _check_frobenius(per_step, at_end, passed):
    from ..devices import try_gpu

    device = try_gpu()
    pretend = device.type == "cpu"  # no GPU: a pretend one records where tensors are made
    steps = 1000
    gen = torch.Generator().manual_seed(2)
    A = torch.randn(100, 100, generator=gen).to(device)  # unscaled: an unnormalized X overflows
    want = torch.tensor(frobenius_reference(A, steps), dtype=torch.float64)

    got_step, reads_step = _norms(per_step, "log_norms_per_step", A, steps, pretend)
    got_end, reads_end = _norms(at_end, "log_norms_at_end", A, steps, pretend)
    passed.append(
        "both versions return 1000 finite norms as Python floats, and make every tensor on "
        "A's device (checked on a pretend GPU when there is no real one)"
    )
    for name, got in (("log_norms_per_step", got_step), ("log_norms_at_end", got_end)):
        got = torch.tensor(got, dtype=torch.float64)
        if not torch.allclose(got, want, rtol=1e-3, atol=0):
            i = int((got - want).abs().div(want.abs()).argmax())
            raise CheckFailed(
                f"{name}: the norm after step {i + 1} is {got[i].item():.6g}, the reference "
                f"{want[i].item():.6g} (step 1 is ||A||_F = {want[0].item():.6g}). Start from "
                "X = identity; each step X = A @ X, log ||X||_F, then X = X / ||X||_F"
            )
    passed.append("they agree with each other and with the reference norms (rtol 1e-3)")

    if len(reads_step) < steps:
        raise CheckFailed(
            f"log_norms_per_step read device data on the host {len(reads_step)} times for "
            f"{steps} steps: transfer each norm to the host as you log it (norm.item()), "
            "which is the slow version this exercise measures"
        )
    passed.append("the per-step version reads every norm on the host (>= 1 host read per step)")

    _, reads_short = _norms(at_end, "log_norms_at_end", A, 10, pretend)
    for n, reads in ((steps, reads_end), (10, reads_short)):
        if len(reads) > 3:
            raise CheckFailed(
                f"log_norms_at_end read device data on the host {len(reads)} times for {n} "
                f"steps ({_shown(reads)}); each read waits for the GPU. Keep the norms on the "
                "device (torch.stack a list of 0-d tensors, or write into "
                "torch.empty(steps, device=A.device)) and transfer them once at the end "
                "with .tolist()"
            )
    with _cuda_sync_counter(device) as syncs:
        at_end(A, steps)
    if len(syncs) > 3:
        raise CheckFailed(
            f"torch.cuda.set_sync_debug_mode saw {len(syncs)} synchronizations in "
            f"log_norms_at_end for {steps} steps (first: {syncs[0]}): something in the loop "
            "waits for the GPU; keep everything on the device until the end"
        )
    passed.append(
        "the at-the-end version makes at most 3 host reads, for 10 steps as for 1000 (counted "
        "with a TorchFunctionMode; on CUDA also with torch.cuda.set_sync_debug_mode)"
    )


# ---------------------------------------------------------------------------------------------
# 02.concurrency


class _LoggedFuture(Future):
    """A finished ``concurrent.futures.Future`` whose ``result()`` counts as a wait."""

    def __init__(self, lane, value):
        super().__init__()
        self._lane = lane
        self.set_result(value)

    def result(self, timeout=None):
        self._lane.log.append(("wait", self._lane.name))
        return super().result(timeout)


class LoggingLane:
    """A lane (``submit(fn, *args) -> future``) that records every launch and every wait.

    The work runs on the CPU when submitted; ``result()`` on the future counts
    as a wait. Lanes share one ``log`` of ``(event, lane name)`` pairs;
    ``values`` keeps what each submitted call returned.
    """

    def __init__(self, name: str, log: list):
        self.name, self.log = name, log
        self.values: list = []

    def submit(self, fn, *args, **kwargs):
        self.log.append(("launch", self.name))
        value = fn(*args, **kwargs)
        self.values.append(value)
        return _LoggedFuture(self, value)


@contextmanager
def _logging_syncs(log: list):
    """Record device-wide synchronizations (``torch.cuda.synchronize``, ``d2lgpu.sync``)."""
    import d2lgpu
    import d2lgpu.timing

    saved = torch.cuda.synchronize, d2lgpu.sync, d2lgpu.timing.sync

    def logged(*args, **kwargs):
        log.append(("wait", "device"))

    torch.cuda.synchronize = d2lgpu.sync = d2lgpu.timing.sync = logged
    try:
        yield
    finally:
        torch.cuda.synchronize, d2lgpu.sync, d2lgpu.timing.sync = saved


@one_cpu_thread
def check_concurrency(answer, passed):
    """``run_concurrently(x, y, lanes)``: both products launched before any wait, both correct."""
    if not callable(answer):
        raise CheckFailed("pass the function itself: check('02.concurrency', run_concurrently)")
    gen = torch.Generator().manual_seed(3)
    x, y = torch.randn(64, 64, generator=gen), torch.randn(64, 64, generator=gen)
    log: list = []
    lanes = [LoggingLane("lanes[0]", log), LoggingLane("lanes[1]", log)]
    with _logging_syncs(log):
        result = answer(x, y, lanes)

    if not isinstance(result, tuple | list) or len(result) != 2:
        raise CheckFailed("return a pair: (x @ x, y @ y)")
    if any(isinstance(r, _LoggedFuture) for r in result):
        raise CheckFailed(
            "you returned futures: call .result() on each (after both are launched) and "
            "return the tensors"
        )
    if not all(isinstance(r, torch.Tensor) for r in result):
        raise CheckFailed("return the two products as tensors: (x @ x, y @ y)")
    xx, yy = x @ x, y @ y
    ok = [
        r.shape == w.shape and torch.allclose(r.cpu(), w)
        for r, w in zip(result, (xx, yy), strict=True)
    ]
    if not all(ok):
        swapped = result[0].shape == yy.shape and torch.allclose(result[0].cpu(), yy)
        if swapped:
            raise CheckFailed("the results are swapped: return (x @ x, y @ y) in that order")
        which = "first" if not ok[0] else "second"
        want = "x @ x" if not ok[0] else "y @ y"
        raise CheckFailed(f"the {which} result is not {want}")
    passed.append("both results are correct (x @ x and y @ y)")

    launches = [lane for event, lane in log if event == "launch"]
    if not launches:
        raise CheckFailed(
            "nothing was submitted to the lanes, so nothing can run concurrently: launch each "
            "product with lanes[i].submit(torch.matmul, a, a), which returns at once with a "
            "future"
        )
    if sorted(launches) != ["lanes[0]", "lanes[1]"]:
        if len(set(launches)) == 1:
            raise CheckFailed(
                f"both products went to {launches[0]}: submit x @ x to lanes[0] and y @ y to "
                "lanes[1], so that each runs on its own device, stream or thread"
            )
        raise CheckFailed(
            f"the lanes got {len(launches)} launches ({', '.join(launches)}): submit exactly "
            "one product to each, x @ x to lanes[0] and y @ y to lanes[1]"
        )
    for lane, want, name, other in ((lanes[0], xx, "x @ x", yy), (lanes[1], yy, "y @ y", xx)):
        value = lane.values[0]
        if not (isinstance(value, torch.Tensor) and value.shape == want.shape):
            raise CheckFailed(
                f"{lane.name} computed a {type(value).__name__}, not {name}: submit the "
                f"product itself, {lane.name}.submit(torch.matmul, a, a)"
            )
        if not torch.allclose(value.cpu(), want):
            what = "the other product" if torch.allclose(value.cpu(), other) else "something else"
            raise CheckFailed(
                f"{lane.name} computed {what}, not {name}: submit x @ x to lanes[0] and y @ y "
                "to lanes[1] (in the notebook, lanes[1] may be another GPU, where y lives)"
            )
    if result[0] is not lanes[0].values[0] or result[1] is not lanes[1].values[0]:
        raise CheckFailed(
            "the returned tensors are not the ones the lanes computed: return what each "
            "future's .result() gives, not a product computed again outside the lanes"
        )
    passed.append("each product went to its own lane: x @ x to lanes[0], y @ y to lanes[1]")

    second = [i for i, (event, lane) in enumerate(log) if event == "launch"][1]
    early = [lane for event, lane in log[:second] if event == "wait"]
    if early:
        what = "torch.cuda.synchronize()" if early[0] == "device" else f"{early[0]} (.result())"
        raise CheckFailed(
            f"you waited for {what} before launching the second product: that runs them one "
            "after another. Submit both first, then call .result() on both"
        )
    passed.append(
        "both products were launched before anything waited for either (no sync between "
        "the launches)"
    )
