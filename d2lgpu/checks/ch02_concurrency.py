"""Checker ``02.concurrency``: two products at once, on two lanes.

The answer submits two products to two *lanes* (anything with
``submit(fn, *args) -> future``, like a ``ThreadPoolExecutor``, a CUDA stream
wrapper or a second GPU's); the checker's :class:`LoggingLane` records every
launch and every wait, so it sees whether both were launched before any wait.

Launching both before waiting is what lets two products run at once; what that
buys depends on where they run, and the hints say so. On two GPUs each does half
of two equal products' work: about 2x, an expectation the course has never
measured. On two streams of one GPU, products overlap only when each is small
enough to leave streaming multiprocessors (SMs) idle; a large product fills
every SM, and the second waits for the first one's blocks to drain (chapter 2,
two products on two streams).
"""

from __future__ import annotations

from concurrent.futures import Future
from contextlib import contextmanager

import torch

from ._kit import patched
from ._util import CheckFailed, one_cpu_thread

__all__ = ["LoggingLane", "check_concurrency"]

# What launching both first buys, in the hint about waiting before the second launch.
_WHERE_IT_HELPS = (
    "two GPUs each do half the work (about 2x for two equal products, never measured by "
    "this course); two streams of one GPU overlap only products small enough to leave SMs "
    "idle, since a large product fills every SM (chapter 2, two products on two streams)"
)


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

    def logged(*args, **kwargs):
        log.append(("wait", "device"))

    with patched(
        (torch.cuda, "synchronize", logged),
        (d2lgpu, "sync", logged),
        (d2lgpu.timing, "sync", logged),
    ):
        yield


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
    xx, yy = x @ x, y @ y
    _check_results(result, xx, yy)
    passed.append("both results are correct (x @ x and y @ y)")
    _check_lanes(result, lanes, log, xx, yy)
    passed.append("each product went to its own lane: x @ x to lanes[0], y @ y to lanes[1]")
    _check_order(log)
    passed.append(
        "both products were launched before anything waited for either (no sync between "
        "the launches): they can run at once on two GPUs, and on two streams of one GPU when "
        "they are small enough to leave SMs idle"
    )


def _check_results(result, xx: torch.Tensor, yy: torch.Tensor) -> None:
    if not isinstance(result, tuple | list) or len(result) != 2:
        raise CheckFailed("return a pair: (x @ x, y @ y)")
    if any(isinstance(r, _LoggedFuture) for r in result):
        raise CheckFailed(
            "you returned futures: call .result() on each (after both are launched) and "
            "return the tensors"
        )
    if not all(isinstance(r, torch.Tensor) for r in result):
        raise CheckFailed("return the two products as tensors: (x @ x, y @ y)")
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


def _check_lanes(result, lanes: list[LoggingLane], log: list, xx, yy) -> None:
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


def _check_order(log: list) -> None:
    second = [i for i, (event, lane) in enumerate(log) if event == "launch"][1]
    early = [lane for event, lane in log[:second] if event == "wait"]
    if early:
        what = "torch.cuda.synchronize()" if early[0] == "device" else f"{early[0]} (.result())"
        raise CheckFailed(
            f"you waited for {what} before launching the second product: that runs them one "
            "after another, on two GPUs as on one. Submit both first, then call .result() on "
            f"both. Launched together, {_WHERE_IT_HELPS}"
        )
