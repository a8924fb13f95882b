"""Checker of chapter 1: ``01.placement``, spreading workers over the devices round-robin.

The answer is ``place_workers(n_workers) -> list[torch.device]``, which must ask
``d2lgpu.try_all_gpus()`` (or ``torch.cuda``) at call time. The checker makes
torch report 0, 1, 2 and 3 GPUs in turn (:func:`fake_gpus`); naming a device
does not touch the hardware, so this works on any machine.
"""

from __future__ import annotations

from contextlib import contextmanager

import torch

from ._util import CheckFailed

__all__ = ["fake_gpus", "check_placement"]


@contextmanager
def fake_gpus(n: int):
    """Make ``torch.cuda`` report ``n`` GPUs for the duration of the block.

    Only ``is_available`` and ``device_count`` are replaced, so code that asks
    how many GPUs there are sees ``n``; code that *uses* a GPU is not faked.
    """
    saved = torch.cuda.is_available, torch.cuda.device_count
    torch.cuda.is_available = lambda: n > 0
    torch.cuda.device_count = lambda: n
    try:
        yield
    finally:
        torch.cuda.is_available, torch.cuda.device_count = saved


def _expected(n_workers: int, gpus: int) -> list[torch.device]:
    devices = [torch.device(f"cuda:{i}") for i in range(gpus)] or [torch.device("cpu")]
    return [devices[i % len(devices)] for i in range(n_workers)]


def _placement(answer, n_workers: int, gpus: int) -> list[torch.device]:
    with fake_gpus(gpus):
        got = answer(n_workers)
    if not isinstance(got, list | tuple):
        raise CheckFailed(
            f"place_workers({n_workers}) returned a {type(got).__name__}: "
            "return a list with one torch.device per worker"
        )
    if len(got) != n_workers:
        raise CheckFailed(
            f"with {gpus} GPU(s), place_workers({n_workers}) returned {len(got)} devices: "
            "return one device per worker, also when there are more workers than devices"
        )
    try:
        return [torch.device(d) for d in got]
    except (TypeError, RuntimeError) as error:
        raise CheckFailed(
            f"an entry is not a device ({error}): return torch.device objects"
        ) from None


def _compare(got, want, gpus: int) -> None:
    if got == want:
        return
    i = next(k for k, (g, w) in enumerate(zip(got, want, strict=True)) if g != w)
    g, w = got[i], want[i]
    if g.type == "cuda" and g.index is None:
        raise CheckFailed(
            f"worker {i} got the device 'cuda' without an index: name each GPU with its "
            "index, as try_all_gpus() does (cuda:0, cuda:1, ...)"
        )
    if gpus == 0:
        raise CheckFailed(
            f"with no GPU, worker {i} was put on {g}, which does not exist: use the devices "
            "that d2lgpu.try_all_gpus() returns ([cpu] on such a machine) instead of "
            "hard-coding cuda"
        )
    if g.type == "cpu":
        raise CheckFailed(
            f"with {gpus} GPU(s), worker {i} went to the CPU while {w} exists: assign worker i "
            "to devices[i % len(devices)] with devices = try_all_gpus() (try_gpu(i) falls "
            "back to the CPU for every i >= the number of GPUs)"
        )
    unused = sorted({str(d) for d in want} - {str(d) for d in got})
    if unused:
        raise CheckFailed(
            f"with {gpus} GPUs, {', '.join(unused)} got no worker: spread the workers "
            "round-robin, worker i on devices[i % len(devices)]"
        )
    raise CheckFailed(
        f"with {gpus} GPU(s), worker {i} should go to {w} but went to {g}: assign worker i "
        "to devices[i % len(devices)]"
    )


def check_placement(answer, passed):
    """``place_workers(n)``: round-robin over ``try_all_gpus()`` with 0, 1, 2 and 3 fake GPUs."""
    if not callable(answer):
        raise CheckFailed("pass the function itself: check('01.placement', place_workers)")
    cases = [
        (0, 5, "no GPU: all 5 workers on the CPU"),
        (1, 5, "one GPU: all 5 workers on cuda:0"),
        (2, 5, "two GPUs: 5 workers alternate between cuda:0 and cuda:1"),
        (3, 2, "three GPUs, 2 workers: cuda:0 and cuda:1 (more devices than workers)"),
    ]
    for gpus, n_workers, description in cases:
        _compare(_placement(answer, n_workers, gpus), _expected(n_workers, gpus), gpus)
        passed.append(description)
