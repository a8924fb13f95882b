"""A thin adapter over the private torch APIs that plan a run at scale in one process.

What it is for: chapter 11 runs a model's parallel code at 8 to 512 ranks in one CPU
process. The engine is PyTorch's own, but its pieces live in private modules whose names
change between releases, so each is imported here, in one place, and a torch that lacks
one says which piece is missing and in which torch version:

* :func:`fake_process_group`: ``torch.testing._internal.distributed.fake_pg``'s fake
  backend (a process group of any size whose collectives move nothing), for one block;
* :func:`memory_tracker`: ``torch.distributed._tools``' ``MemTracker`` (a plain or a
  DDP-wrapped module) or ``FSDPMemTracker`` (a module sharded by ``fully_shard``), which
  file every tensor allocated under them by kind (parameter, gradient, optimizer state,
  activation, temporary) and keep the peak (:func:`restart_peak` starts it again after a
  warm-up step);
* :func:`comm_debug_mode`: ``torch.distributed.tensor.debug.CommDebugMode``, which counts
  the collectives a block calls (it gives no byte count);
* :func:`collective_bytes`: the course's own count of the bytes handed to each
  ``torch.distributed`` collective in a block, the byte count ``CommDebugMode`` lacks;
* :func:`schedule_ops`: ``torch.distributed.pipelining._schedule_visualizer``'s
  ``get_schedule_ops``, the ordered actions of a pipeline schedule on each stage.

What it is not: a reimplementation of any of them. :mod:`d2lgpu.scale` is what the
chapter calls.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import sys
from collections import defaultdict
from contextlib import contextmanager

import torch
import torch.distributed as dist

__all__ = [
    "MissingPiece",
    "collective_bytes",
    "comm_debug_mode",
    "fake_process_group",
    "memory_tracker",
    "restart_peak",
    "schedule_ops",
]


class MissingPiece(ImportError):
    """This torch lacks a private piece that chapter 11's engine uses."""


def _need(module: str, name: str, purpose: str):
    """``module.name``, or :class:`MissingPiece` naming it and this torch's version."""
    try:
        return getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError) as error:
        raise MissingPiece(
            f"torch {torch.__version__} lacks {module}.{name} ({purpose}): {error}. "
            "Chapter 11 was written for torch 2.14; install the version in requirements.lock"
        ) from error


@contextmanager
def fake_process_group(world_size: int, rank: int = 0):
    """A fake process group of ``world_size`` ranks, this process as ``rank``, for the block.

    Collectives on it return at once and move no data: the block runs one rank's code,
    with every shape and every allocation that rank would make. Raises RuntimeError if a
    process group is already initialized (a real one must not be replaced silently).
    """
    store_class = _need(
        "torch.testing._internal.distributed.fake_pg", "FakeStore", "the fake process group"
    )
    if dist.is_initialized():
        raise RuntimeError(
            "a process group is already initialized in this process; call "
            "torch.distributed.destroy_process_group() before planning with a fake one"
        )
    # init_process_group wraps sys.excepthook to prefix "[rank0]: " and no destroy undoes it:
    # a script that plans twenty runs would print an error's lines behind twenty prefixes
    excepthook = sys.excepthook
    dist.init_process_group("fake", store=store_class(), rank=rank, world_size=world_size)
    try:
        yield
    finally:
        dist.destroy_process_group()
        sys.excepthook = excepthook


def memory_tracker(module, optimizer, *, fsdp: bool):
    """A tracker of ``module`` and ``optimizer``'s memory: ``FSDPMemTracker`` if ``fsdp``.

    Use it as a context manager around training steps; its ``get_tracker_snapshot("peak")``
    maps each device to the bytes of each kind at the peak, and ``"Total"``. It keeps the
    global peak only (:func:`_global_peak_only`).
    """
    if fsdp:
        tracker_class = _need(
            "torch.distributed._tools.fsdp2_mem_tracker",
            "FSDPMemTracker",
            "per-rank memory of a module sharded by fully_shard",
        )
        return _global_peak_only(tracker_class)(module, optimizer)
    tracker_class = _need(
        "torch.distributed._tools.mem_tracker", "MemTracker", "per-rank memory of a module"
    )
    tracker = _global_peak_only(tracker_class)()
    tracker.track_external(module, optimizer)
    return tracker


@functools.cache
def _global_peak_only(tracker_class):
    """``tracker_class`` keeping the global peak, not each module's peak as well.

    After every operation the tracker updates its global peak and then, for every module
    seen so far, that module's own peak: a loop over about a hundred modules per operation,
    half of the time a 125M model's step takes under it. The course reads the global peak
    alone (``get_tracker_snapshot("peak")``), so during that update the tracker is shown no
    modules; its own code still updates the global peak, and its modules are put back at
    once. Where a torch has no such update, nothing changes.
    """

    class Tracker(tracker_class):
        def _update_peak_stats(self, peak_state) -> None:
            modules = self.memory_tracking  # type: ignore[has-type]
            self.memory_tracking = {}
            try:
                super()._update_peak_stats(peak_state)
            finally:
                self.memory_tracking = modules

    Tracker.__name__ = Tracker.__qualname__ = f"GlobalPeak{tracker_class.__name__}"
    return Tracker


def restart_peak(tracker) -> None:
    """Start ``tracker``'s global peak afresh from the bytes held now, as entering it does.

    ``reset_mod_stats()`` clears only each module's own peak: the global peak, which the course
    reads, would still cover a warm-up step. That step is where a process first meets a
    sharded operator at a world size, and the tracker then files the global-shape tensors
    DTensor's sharding propagation makes to infer the output's shape: tensors no GPU ever
    holds, which made the first measurement of a plan in a process up to 29% larger than the
    next (tensor parallelism of degree 4 on 8 ranks: 575.5 MB, then 447.4 MB)."""
    tracker.reset_mod_stats()
    if not hasattr(tracker, "_peak_mem_snap"):
        raise MissingPiece(
            f"torch {torch.__version__}'s {type(tracker).__name__} keeps its peak elsewhere "
            "than _peak_mem_snap: the course cannot restart it after a warm-up step"
        )
    snapshot = tracker.get_tracker_snapshot()
    tracker._peak_mem_snap = snapshot
    tracker._peak_mem = {device: kinds["Total"] for device, kinds in snapshot.items()}


def comm_debug_mode():
    """``CommDebugMode()``: counts the collectives called in its block, by op."""
    return _need(
        "torch.distributed.tensor.debug", "CommDebugMode", "counting collectives per step"
    )()


def schedule_ops(schedule: str, n_stages: int, n_micro: int, stages_per_rank: int = 1):
    """The actions of pipeline ``schedule`` per rank: ``get_schedule_ops`` without spacing.

    ``schedule`` is a name ``torch.distributed.pipelining.schedules`` knows ("GPipe",
    "1F1B", "Interleaved1F1B", "ZBVZeroBubble", ...). The answer has one list per rank,
    in order, of actions (``None`` for a slot the schedule leaves idle).
    """
    get_schedule_ops = _need(
        "torch.distributed.pipelining._schedule_visualizer",
        "get_schedule_ops",
        "the actions of a pipeline schedule",
    )
    return get_schedule_ops(schedule, n_stages, n_micro, num_stages_per_rank=stages_per_rank)


# collective -> the argument whose bytes are its size S, as nccl-tests counts it: the buffer
# of an all-reduce or a broadcast, the gathered output of an all-gather, the input of a
# reduce-scatter. torch 2.14's FSDP2 calls the *_single names; older torches the others.
_SIZED = {
    "all_reduce": "tensor",
    "broadcast": "tensor",
    "all_gather_single": "output_tensor",
    "all_gather_into_tensor": "output_tensor",
    "reduce_scatter_single": "input",
    "reduce_scatter_tensor": "input",
}


@contextmanager
def collective_bytes():
    """``{name: [bytes, ...]}``: the size of each ``torch.distributed`` collective called in the block.

    Wraps the module's functions for the block (a collective that calls another is counted
    once, as the outer one) and puts them back after. Fake tensors count as real ones: the
    bytes are the shape's.
    """
    found: dict[str, list[int]] = defaultdict(list)
    depth = [0]
    saved = {}

    def wrap(name, fn, argument):
        signature = inspect.signature(fn)

        @functools.wraps(fn)
        def counted(*args, **kwargs):
            if depth[0] == 0:
                tensor = signature.bind(*args, **kwargs).arguments[argument]
                found[name].append(tensor.numel() * tensor.element_size())
            depth[0] += 1
            try:
                return fn(*args, **kwargs)
            finally:
                depth[0] -= 1

        return counted

    for name, argument in _SIZED.items():
        fn = getattr(dist, name, None)
        if fn is not None:
            saved[name] = fn
            setattr(dist, name, wrap(name, fn, argument))
    try:
        yield found
    finally:
        for name, fn in saved.items():
            setattr(dist, name, fn)
