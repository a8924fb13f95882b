"""Checker ``02.concurrency``: two products at once, on two lanes.

The answer submits two products to two *lanes* (anything with
``submit(fn, *args) -> future``, like a ``ThreadPoolExecutor``, a CUDA stream
wrapper or a second GPU's); the checker's :class:`LoggingLane` records every
launch and every wait, so it sees whether both were launched before any wait.
It also sees a wait inside a lane's job (the lanes then run one after the other),
a product computed in the caller, and a result copied back (``.cpu()``), and runs
three more cases: the same tensors' memory with new values (nothing cached), three
lanes (``lanes[1]`` is not the last), and ``torch.cuda.is_available()`` answering
True, so that a ``torch.cuda.synchronize()`` behind it is seen (CUDA calls that fail
there are ignored: only the waits logged before count).

Launching both before waiting is what lets two products run at once; what that
buys depends on where they run, and the hints say so. On two GPUs each does half
of two equal products' work: about 2x, an expectation the course has never
measured. On two streams of one GPU, products overlap only when each is small
enough to leave streaming multiprocessors (SMs) idle; a large product fills
every SM, and the second waits for the first one's blocks to drain (chapter 2,
two products on two streams).
"""

from __future__ import annotations

import weakref

import torch

from ._ch02_lanes import (
    LaneLog,
    LateLane,
    LoggingLane,
    lanes_bypassed,
    run_logged,
    streams_switched,
)
from ._ch02_order import (
    check_both_lanes,
    check_copies,
    check_lane_indices,
    check_launched_from,
    check_order,
    check_waited,
)
from ._ch02_results import check_results as _check_results
from ._kit import alive_after_collecting, patched
from ._util import CheckFailed, one_cpu_thread

__all__ = ["LoggingLane", "check_concurrency"]


@one_cpu_thread
def check_concurrency(answer, passed):
    """``run_concurrently(x, y, lanes)``: both products launched before any wait, both correct,
    each on its own lane, computed by the lanes on every call, and handed back where the
    lanes left them."""
    if not callable(answer):
        raise CheckFailed("pass the function itself: check('02.concurrency', run_concurrently)")
    gen = torch.Generator().manual_seed(3)
    x, y = torch.randn(64, 64, generator=gen), torch.randn(64, 64, generator=gen)
    result, lanes, log = run_logged(answer, x, y, 2)
    xx, yy = x @ x, y @ y
    _check_results(result, xx, yy)
    passed.append(
        "both results are correct (x @ x and y @ y), also with lanes that start each function late"
    )
    check_launched_from(log)
    _check_lanes(result, lanes, log, xx, yy)
    passed.append("each product went to its own lane: x @ x to lanes[0], y @ y to lanes[1]")
    check_order(log)
    check_waited(log)
    check_copies(log)

    # The same tensors (same memory, same data_ptr) with new values: computed again.
    x.copy_(torch.randn(64, 64, generator=gen))
    y.copy_(torch.randn(64, 64, generator=gen))
    again, lanes, log = run_logged(answer, x, y, 2)
    if isinstance(again, tuple | list) and len(again) == 2:
        if all(isinstance(r, torch.Tensor) for r in again) and torch.equal(again[0], xx):
            raise CheckFailed(
                "a second call, with new values in the same tensors x and y (the same memory, "
                "the same data_ptr()), returned the first call's products: do not cache results "
                "by the inputs' memory, shape or id; submit both products on every call"
            )
    _check_results(again, x @ x, y @ y)
    check_launched_from(log)
    _check_lanes(again, lanes, log, x @ x, y @ y)
    check_order(log)
    check_waited(log)
    check_copies(log)
    _check_nothing_kept(answer, x, y)

    # Three lanes: lanes[1] is not the last one. An answer written for exactly two lanes
    # (zip(..., strict=True)) may raise here; only where its products went counts.
    _, lanes, log = run_logged(answer, x, y, 3, errors_ignored=True)
    check_lane_indices(log)

    # Two products of different sizes and dtypes: nothing in the exercise makes them equal.
    z = torch.randn(48, 48, generator=gen, dtype=torch.float64)
    try:
        other, lanes, log = run_logged(answer, x, z, 2)
    except Exception as error:
        raise CheckFailed(
            f"with x of 64 x 64 and y of 48 x 48 in float64 your function raised "
            f"{type(error).__name__}: {error}. The two products are independent: any two "
            "square matrices, of any sizes and dtypes, on their own lanes"
        ) from None
    _check_results(other, x @ x, z @ z)
    _check_lanes(other, lanes, log, x @ x, z @ z)
    _check_late_lanes(answer, x, z)
    _check_one_lane_twice(answer, x, z)

    # As on a machine with two GPUs: a torch.cuda.synchronize() behind
    # `if torch.cuda.is_available()` or `if x.device.type == "cuda"` is a wait too. CUDA
    # calls may fail here (there is none): only the waits logged before the failure count.
    with patched((torch.cuda, "is_available", lambda: True)):
        _, lanes, log = run_logged(answer, x, y, 2, errors_ignored=True, gpus=(0, 1))
    check_order(log, where=" (in a run where torch.cuda.is_available() was True and x, y "
                 "were on cuda:0, cuda:1)")  # fmt: skip
    if hint := lanes_bypassed(log) or streams_switched(log):
        raise CheckFailed(hint)
    with patched((torch.cuda, "is_available", lambda: True)):  # two streams of one GPU
        got, lanes, log = run_logged(answer, x, y, 2, errors_ignored=True, gpus=(0, 0))
    one_gpu = "given two lanes on cuda:0 (lane.device, as two CudaLanes of one GPU)"
    check_both_lanes(log, one_gpu, returned=got is not None)
    passed.append(
        "both products were launched before anything waited for either (no sync between "
        "the launches): they can run at once on two GPUs, and on two streams of one GPU when "
        "they are small enough to leave SMs idle"
    )


def _one_launch_hint(name: str, value, xx, yy) -> str:
    """The hint for a single job submitted, to lane ``name``, which made ``value``."""
    if _holds(value, xx) and _holds(value, yy):
        how = (
            f"at once (a {tuple(value.shape)} batch: torch.stack and bmm, say)"
            if isinstance(value, torch.Tensor)
            else "(one job returning both)"
        )
        return (
            f"only one job was submitted (to {name}), and it computed both products {how}: "
            "one lane runs them, and the other does nothing. Batching is a fine way to fill "
            "one device, but this exercise asks for x @ x on lanes[0] and y @ y on lanes[1], "
            "each launched on its own lane"
        )
    if not (_holds(value, xx) or _holds(value, yy)):
        return (
            f"only one job was submitted (to {name}), and what it computed is neither x @ x nor "
            "y @ y: submit x @ x to lanes[0] and y @ y to lanes[1], then wait for both"
        )
    missing, where = ("y @ y", "lanes[1]") if _holds(value, xx) else ("x @ x", "lanes[0]")
    return (
        f"only one product was submitted (to {name}): {missing} was computed in the caller's "
        "own thread, outside the lanes, so nothing runs it at the same time as the other and "
        f"its device, stream or thread is not the lane's. Submit {missing} to {where} too, "
        "before waiting for either"
    )


def _holds(value, want) -> bool:
    """Whether ``value`` is ``want``, or holds it as one of a batch's matrices or of a tuple."""
    if isinstance(value, tuple | list):
        return any(_holds(v, want) for v in value)
    if not isinstance(value, torch.Tensor):
        return False
    value = value.detach().cpu()
    if value.shape == want.shape:
        return torch.allclose(value, want)
    return (
        value.dim() == 3
        and value.shape[1:] == want.shape
        and any(torch.allclose(m, want) for m in value)
    )


def _check_nothing_kept(answer, x, y) -> None:
    """A call keeps nothing of its own once it returns and the caller lets go of the results
    and of the inputs (copies of ``x`` and ``y`` here)."""
    x, y = x.clone(), y.clone()
    result, lanes, log = run_logged(answer, x, y, 2)
    kept = [weakref.ref(r) for r in result if isinstance(r, torch.Tensor)]
    given = [weakref.ref(x), weakref.ref(y)]
    del result, lanes, log, x, y
    if alive_after_collecting(lambda: [t for t in given if t() is not None]):
        raise CheckFailed(
            "after your function returned and the caller let go of x and y, they were still "
            "alive: something kept between calls (a global or class-level list, never "
            "cleared) holds every call's inputs, and on a GPU their memory, for as long as the "
            "program runs. A future keeps what its function needs until its result is read; "
            "keep nothing else"
        )
    if alive_after_collecting(lambda: [r for r in kept if r() is not None]):
        raise CheckFailed(
            "after your function returned and the caller let go of the results, the products "
            "were still alive: something kept between calls (a global or class-level list of "
            "futures or results, never cleared) holds every call's products, and on a GPU their "
            "memory, for as long as the program runs. Keep the futures in variables of the call"
        )


def _the_products(answer, x, y, lanes) -> bool:
    """Whether ``answer(x, y, lanes)`` returns (x @ x, y @ y)."""
    got = answer(x, y, lanes)
    if not (isinstance(got, tuple | list) and len(got) == 2):
        return False
    return all(
        isinstance(r, torch.Tensor) and r.shape == w.shape and torch.allclose(r, w)
        for r, w in zip(got, (x @ x, y @ y), strict=True)
    )


def _check_one_lane_twice(answer, x, y) -> None:
    """The same lane given twice (one pool of two workers, as lanes[0] and lanes[1]) gives the
    same products: futures told apart by their lane lose one."""
    lane = LoggingLane("the lane", [])
    if not _the_products(answer, x, y, [lane, lane]):
        raise CheckFailed(
            "given the same lane twice (lanes[0] is lanes[1]: one pool of two workers, passed "
            "as both), your function did not return (x @ x, y @ y): futures kept by their lane "
            "(a dict keyed by the lane object) lose one product, the second submit's future "
            "replacing the first's. Keep the futures by position: fx = lanes[0].submit(...), "
            "fy = lanes[1].submit(...)"
        )


def _check_late_lanes(answer, x, y) -> None:
    """Lanes that run each function when its result is asked for give the same products."""
    if not _the_products(answer, x, y, [LateLane(), LateLane()]):
        raise CheckFailed(
            "with lanes that start each function only when its result is asked for (a busy "
            "ThreadPoolExecutor may start it late), your function did not return (x @ x, "
            "y @ y): a function that reads a loop variable when it runs (lambda: m @ m in a "
            "loop) sees the variable's last value. Pass each matrix as an argument, "
            "lanes[i].submit(torch.matmul, m, m), or bind it (lambda m=m: m @ m)"
        )


def _made_by(lane: LoggingLane, log: LaneLog):
    """What ``lane``'s first job made: what it returned, or, for a job that stored its
    product (in a dict, a list) and returned nothing, the first product it computed."""
    value = lane.values[0]
    stored = log.products.get(lane.name)  # what each job made
    return stored[0] if value is None and stored else value


def _check_lanes(result, lanes: list[LoggingLane], log: LaneLog, xx, yy) -> None:
    launches = [lane for event, lane, _ in log if event == "launch"]
    if not launches and any(event == "product" for event, _, _ in log):
        raise CheckFailed(
            "both products were computed in your function itself, in the caller's thread, "
            "not submitted to the lanes: nothing runs them at the same time, on any size of "
            "input (a shortcut for small matrices is one too: the check's are 64 x 64). "
            "Launch each with lanes[i].submit(torch.matmul, a, a), which returns at once "
            "with a future, then call .result() on both"
        )
    if not launches:
        raise CheckFailed(
            "nothing was submitted to the lanes this call was given, so nothing can run "
            "concurrently (lanes kept from an earlier call, in a global or a default argument, "
            "or your own thread pool, are not these lanes): launch each product with "
            "lanes[i].submit(torch.matmul, a, a), which returns at once with a future"
        )
    if len(launches) == 1:
        lane = next(lane for lane in lanes if lane.name == launches[0])
        raise CheckFailed(_one_launch_hint(lane.name, _made_by(lane, log), xx, yy))
    check_lane_indices(log)
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
    made = [_made_by(lane, log) for lane in lanes[:2]]
    for lane, want, name, other, value in (
        (lanes[0], xx, "x @ x", yy, made[0]),
        (lanes[1], yy, "y @ y", xx, made[1]),
    ):
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
    if result[0] is not made[0] or result[1] is not made[1]:
        raise CheckFailed(
            "the returned tensors are not the ones the lanes computed: return what each "
            "future's .result() gives, not a product computed again outside the lanes"
        )
    extra = [how for event, how, _ in log if event == "product"]
    if extra:
        raise CheckFailed(
            f"besides the two lanes' products, your function computed a product itself "
            f"({extra[0]}, in the caller, outside the lanes), e.g. x @ x again to verify a "
            "result: that is the work done twice, on the caller's device and stream, and it is "
            "counted in every timing. Let the lanes do the products, and return their results"
        )
