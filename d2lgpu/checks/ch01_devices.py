"""Checker of chapter 1: ``01.placement``, spreading workers over the devices round-robin.

The answer is ``place_workers(n_workers) -> list[torch.device]``, which must ask
``d2lgpu.try_all_gpus()`` (or ``torch.cuda``) at call time. The checker makes torch report
0 to 4, then 6 GPUs (:func:`fake_gpus`); naming a device touches no hardware.

:func:`fake_gpus` also takes a :class:`GpuProfile` (:data:`T4`, :data:`H100`):
then torch describes those GPUs too (name, memory, compute capability, bf16,
peer access), which is how the tests check the course's device and precision
choices for Colab's T4, Kaggle's two T4s and an H100 on a CPU.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from types import SimpleNamespace

import torch

from ._ch01_calls import (
    check_fresh_list,
    check_visible,
    count_hint,
    entries_are_devices,
    every_device_used,
    no_gpu_ids,
    rotation_hint,
    touch_hint,
)
from ._kit import patched
from ._util import CheckFailed

__all__ = ["GpuProfile", "T4", "H100", "fake_gpus", "check_placement"]


@dataclass(frozen=True)
class GpuProfile:
    """What torch reports about one GPU model, for :func:`fake_gpus`."""

    name: str  # torch.cuda.get_device_name()
    capability: tuple[int, int]  # (major, minor)
    total_memory: int  # bytes
    multi_processor_count: int  # SMs
    peer_access: bool  # whether two of them reach each other's memory (NVLink or PCIe P2P)

    @property
    def bf16_native(self) -> bool:
        """bf16 tensor cores: compute capability 8.0 and newer (torch's own rule)."""
        return self.capability >= (8, 0)


GiB = 2**30
# Colab's GPU, and each of Kaggle's two, which share no memory path (no peer access).
T4 = GpuProfile("Tesla T4", (7, 5), 15 * GiB, 40, peer_access=False)
H100 = GpuProfile("NVIDIA H100 80GB HBM3", (9, 0), 80 * GiB, 132, peer_access=True)


def _profile_fakes(n: int, profile: GpuProfile) -> list:
    def index(device=None) -> int:
        if device is None:
            return 0
        if isinstance(device, int):
            i = device
        else:
            d = torch.device(device)
            if d.type != "cuda":
                raise ValueError(f"Expected a cuda device, but got: {d}")
            i = 0 if d.index is None else d.index
        if not 0 <= i < n:
            raise AssertionError(f"Invalid device id {i}: the fake has {n} GPU(s)")
        return i

    def properties(device=None):
        index(device)
        major, minor = profile.capability
        return SimpleNamespace(
            name=profile.name,
            total_memory=profile.total_memory,
            major=major,
            minor=minor,
            multi_processor_count=profile.multi_processor_count,
        )

    def capability(device=None) -> tuple[int, int]:
        index(device)
        return profile.capability

    def can_access_peer(device, peer_device) -> bool:
        return index(device) != index(peer_device) and profile.peer_access

    return [
        (torch.cuda, "current_device", lambda: 0),
        (torch.cuda, "get_device_name", lambda device=None: properties(device).name),
        (torch.cuda, "get_device_properties", properties),
        (torch.cuda, "get_device_capability", capability),
        (
            torch.cuda,
            "is_bf16_supported",
            lambda including_emulation=True: profile.bf16_native or including_emulation,
        ),
        (torch.cuda, "can_device_access_peer", can_access_peer),
    ]


@contextmanager
def fake_gpus(n: int, profile: GpuProfile | None = None):
    """Make ``torch.cuda`` (and ``torch.accelerator``) report ``n`` GPUs for the block.

    Only the functions that say whether there are GPUs, and how many, are
    replaced, so code that asks sees ``n``; code that *uses* a GPU is not faked.
    With a ``profile`` (:data:`T4`, :data:`H100`), the functions that describe a
    GPU answer for ``n`` of that model: ``get_device_name``, ``get_device_properties``
    (name, total_memory, major, minor, multi_processor_count),
    ``get_device_capability``, ``is_bf16_supported(including_emulation=...)`` (a T4: only
    with emulation) and ``can_device_access_peer``.
    """
    if profile is not None and n < 1:
        raise ValueError(f"n must be at least 1 with a profile, got {n}")
    fakes = [
        (torch.cuda, "is_available", lambda: n > 0),
        (torch.cuda, "device_count", lambda: n),
    ]
    if profile is not None:
        fakes += _profile_fakes(n, profile)
    fakes += [
        (torch.accelerator, "is_available", lambda: n > 0),
        (torch.accelerator, "device_count", lambda: n),
    ]
    with patched(*[(owner, name, fake) for owner, name, fake in fakes if hasattr(owner, name)]):
        yield


def _expected(n_workers: int, gpus: int) -> list[torch.device]:
    devices = [torch.device(f"cuda:{i}") for i in range(gpus)] or [torch.device("cpu")]
    return [devices[i % len(devices)] for i in range(n_workers)]


def _placement(answer, n_workers: int, gpus: int, history=None) -> list[torch.device]:
    """``answer(n_workers)`` with ``gpus`` pretend GPUs; ``history`` gets (GPUs, devices)."""
    with fake_gpus(gpus):
        got = answer(n_workers)
    if not isinstance(got, list | tuple):
        raise CheckFailed(
            f"place_workers({n_workers}) returned a {type(got).__name__}: "
            "return a list with one torch.device per worker"
        )
    if len(got) != n_workers:
        raise CheckFailed(
            f"with {gpus} GPU(s), place_workers({n_workers}) returned {len(got)} device(s): "
            + count_hint(n_workers, len(got), gpus)
        )
    try:
        devices = [torch.device(d) for d in got]
    except (TypeError, RuntimeError) as error:
        raise CheckFailed(
            f"an entry is not a device ({error}): return torch.device objects"
        ) from None
    if history is not None:
        history.append((gpus, devices))
    return devices


def _compare(got, want, gpus: int, answer=None) -> None:
    if got == want:
        return
    i = next(k for k, (g, w) in enumerate(zip(got, want, strict=True)) if g != w)
    g, w = got[i], want[i]
    if gpus == 0 and g.type != "cpu":
        raise CheckFailed(
            f"with no GPU, worker {i} was put on {g}, which does not exist: use the devices "
            "that d2lgpu.try_all_gpus() returns ([cpu] on such a machine) instead of "
            "hard-coding cuda (torch.accelerator.current_accelerator() names the accelerator "
            "torch was built for, whether or not one is there)"
        )
    if g.type == "cuda" and g.index is None:
        raise CheckFailed(
            f"worker {i} got the device 'cuda' without an index: name each GPU with its "
            "index, as try_all_gpus() does (cuda:0, cuda:1, ...)"
        )
    if gpus > 0 and all(d.type == "cpu" for d in got):
        if answer is not None and any(d.type == "cuda" for d in _placement(answer, 4, 2)):
            raise CheckFailed(
                f"with {gpus} GPU(s) every worker went to the CPU, although with 2 GPUs your "
                "function uses them: it does ask for the devices at call time, but leaves a "
                "lone GPU unused. One GPU is a device like any other: try_all_gpus() returns "
                "[cuda:0] then, and every worker goes there"
            )
        raise CheckFailed(
            (answer is not None and touch_hint(answer, gpus, fake_gpus))
            or f"with {gpus} GPU(s) every worker went to the CPU: ask for the devices inside "
            "place_workers, at call time (chapter 1's try_all_gpus()); a list made once, "
            "outside the function, does not see the GPUs"
        )
    if gpus == 0:  # a CPU of another index (cpu:0)
        raise CheckFailed(
            f"with no GPU, worker {i} was put on {g}, which does not exist: use the devices "
            "that d2lgpu.try_all_gpus() returns ([cpu] on such a machine) instead of "
            "hard-coding cuda"
        )
    if g.type == "cpu":
        raise CheckFailed(
            f"with {gpus} GPU(s), worker {i} went to the CPU while {w} exists: try_gpu(i) falls "
            "back to the CPU for every i >= the number of GPUs, and a list of devices with the "
            "CPU in it rotates onto it; where there are GPUs, no worker goes to the CPU. Take "
            "the list of devices try_all_gpus() returns, and go round it again once every "
            "device has a worker (round-robin)"
        )
    unused = sorted({str(d) for d in want} - {str(d) for d in got})
    if unused:
        raise CheckFailed(
            f"with {gpus} GPUs, {', '.join(unused)} got no worker: spread the workers "
            "round-robin, each worker on the device after the previous worker's, back to the "
            "first after the last"
        )
    again = answer and (lambda: [_placement(answer, n, gpus) for n in (len(got), 1, len(got))])
    if rotated := rotation_hint(got, want, gpus, again):
        raise CheckFailed(rotated)
    raise CheckFailed(
        f"with {gpus} GPU(s), worker {i} should go to {w} but went to {g}: in round-robin "
        "order, consecutive workers go to consecutive devices, back to the first after the last"
    )


def check_placement(answer, passed):
    """``place_workers(n)``: round-robin over ``try_all_gpus()`` with 0 to 6 fake GPUs."""
    if not callable(answer):
        raise CheckFailed("pass the function itself: check('01.placement', place_workers)")
    with no_gpu_ids():  # a launcher's GPU variables unset, a write to one named
        cases = [
            (0, 5, "no GPU: all 5 workers on the CPU"),
            (1, 5, "one GPU: all 5 workers on cuda:0"),
            (2, 5, "two GPUs: 5 workers alternate between cuda:0 and cuda:1"),
            (3, 2, "three GPUs, 2 workers: cuda:0 and cuda:1 (more devices than workers)"),
        ]
        history: list[tuple[int, list]] = []  # (GPUs, placement) of every call so far
        _asks_at_call_time(answer, history)
        for gpus, n_workers, description in cases:
            got = _placement(answer, n_workers, gpus, history)
            _not_kept(answer, got, gpus, history)
            _compare(got, _expected(n_workers, gpus), gpus, answer)
            passed.append(description)
        for gpus, n_workers in [(3, 3), (3, 7), (4, 4), (4, 9), (6, 7), (2, 2), (1, 1), (0, 1)]:
            got = _placement(answer, n_workers, gpus, history)
            _not_kept(answer, got, gpus, history)
            every_device_used(got, _expected(max(gpus, 1), gpus), gpus)
            _compare(got, _expected(n_workers, gpus), gpus, answer)
        _placement(answer, 0, 2)  # no worker, no device: _placement names a list that is not empty
        passed.append(
            "with 1 to 6 GPUs and at least as many workers as GPUs, every GPU gets a worker "
            "(3 GPUs and 3 or 7 workers, 4 GPUs and 4 or 9 workers, 6 GPUs and 7 workers)"
        )
        entries_are_devices(answer, fake_gpus)
        check_fresh_list(answer, fake_gpus)
        passed.append("every entry is a torch.device")
        check_visible(answer, fake_gpus)
        passed.append(
            "with CUDA_VISIBLE_DEVICES=2,3 (or Slurm's), or LOCAL_RANK=1, the two GPUs torch "
            "numbers cuda:0 and cuda:1, from cuda:0"
        )


def _not_kept(answer, got, gpus: int, history: list[tuple[int, list]]) -> None:
    """A wrong placement that is what an earlier call returned, right then, for as many
    workers and another number of GPUs, while a number of workers never asked before comes
    out right: a result kept between calls (``got`` is the last of ``history``)."""
    n = len(got)
    if got == _expected(n, gpus):
        return
    for before, placement in history[:-1]:
        if before != gpus and placement == got == _expected(n, before):
            fresh = 10 + len(history)  # a number of workers no other call asks for
            if _placement(answer, fresh, gpus) != _expected(fresh, gpus):
                return  # wrong however asked: not a kept result
            raise CheckFailed(
                f"with {gpus} GPU(s), place_workers({n}) returned what it returned for {n} "
                f"workers with {before} GPU(s), while place_workers({fresh}), never asked "
                "before, is right: a result kept from an earlier call (a cache keyed on the "
                "number of workers, or on torch.cuda.is_available()) misses a change in the "
                "number of GPUs. Compute the list in every call, from try_all_gpus()"
            )


def _asks_at_call_time(answer, history=None) -> None:
    """An answer whose devices do not change with the number of GPUs never asks the machine.

    On a machine without a GPU such an answer puts every worker on the CPU (the hint of
    :func:`_compare` says so); on a GPU machine, the same mistake puts them all on its GPUs.
    """
    with_none, with_two = _placement(answer, 5, 0, history), _placement(answer, 5, 2, history)
    asks_for_new_n = any(d.type == "cuda" for d in _placement(answer, 6, 2)) and all(
        d.type == "cpu" for d in _placement(answer, 7, 0)
    )
    if with_none == with_two and asks_for_new_n:
        # The same devices for 5 workers whatever the GPUs, yet a new n follows them: kept.
        raise CheckFailed(
            "place_workers(5) returned the same devices with no GPU and with 2 GPUs, while "
            "place_workers(6) with 2 GPUs uses them: the result for 5 workers was kept from "
            "the first call (functools.lru_cache / cache, or a dict of results). Compute the "
            "list in every call: the machine's GPUs can change between calls"
        )
    if with_none == with_two and any(d.type == "cuda" for d in with_none):
        shown = ", ".join(str(d) for d in with_none)
        raise CheckFailed(
            f"place_workers(5) returned the same devices ({shown}) with no GPU and with 2 "
            "GPUs: ask for the devices inside place_workers, at call time (chapter 1's "
            "try_all_gpus()); a list made once outside the function, or a hard-coded "
            "'cuda', cannot follow the machine"
        )
