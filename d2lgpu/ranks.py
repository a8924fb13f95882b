"""Gloo ranks forked from a notebook: run one function on each, and count its all-reduces.

What it is for: chapter 9's tensor- and pipeline-parallel sections, whose per-rank code is
a function defined in a cell that the reader can read and change.

* :func:`run_ranks` forks ``world`` processes. Each uses one CPU thread, joins a ``gloo``
  process group through a file store, calls ``fn(rank, world)``, sends back what it
  returned (pickled: tensors, numbers, dicts of them) and leaves the group. The answer
  is the list of the ranks' results, rank 0 first. An exception in a rank comes back as
  :class:`RankFailed`, with the rank and its traceback; ranks that do not finish within
  ``timeout_s`` (a collective that some rank never calls waits for it) are killed and
  :class:`RankFailed` says so.
* :func:`count_all_reduces` wraps ``torch.distributed.all_reduce`` while a block runs
  and records each call: the shape, the bytes and the reduction, in order.

Fork, not spawn: a fresh interpreter could not import a function defined in a notebook
cell (chapter 5 shows why); a forked child already has it.

What it is not: a launcher for training scripts (that is ``torchrun``, through
:mod:`d2lgpu.launcher`), nor a wrapper around PyTorch's distributed API: ``fn`` calls
``torch.distributed`` itself.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import tempfile
import time
import traceback
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

import torch
import torch.distributed as dist

from ._validate import check_int

__all__ = ["AllReduceCall", "AllReduceLog", "RankFailed", "count_all_reduces", "run_ranks"]


class RankFailed(RuntimeError):
    """A rank raised, died, or did not finish in time; ``rank`` says which (None: unknown)."""

    def __init__(self, rank, message: str):
        super().__init__(message if rank is None else f"rank {rank}: {message}")
        self.rank = rank


def _send(conn, message) -> None:
    # Plain pickle: multiprocessing's own pickling of tensors passes shared memory that the
    # parent would fetch from this rank later, after the rank has exited.
    conn.send_bytes(pickle.dumps(message))


def _rank_main(fn, rank, world, store_path, timeout_s, conn):
    try:
        torch.set_num_threads(1)
        store = dist.FileStore(store_path, world)
        timeout = timedelta(seconds=timeout_s)
        dist.init_process_group("gloo", store=store, rank=rank, world_size=world, timeout=timeout)
        # Every rank has connected before any goes on: one that fails or finishes at once and
        # leaves must not close connections another rank is still opening (it would then
        # fail with "Connection closed by peer" instead of reporting its own outcome).
        dist.barrier()
        try:
            result = fn(rank, world)
        finally:
            dist.destroy_process_group()
        _send(conn, ("ok", result))
    except BaseException:  # noqa: BLE001 (reported to the parent, whatever it is)
        _send(conn, ("error", traceback.format_exc()))
    finally:
        conn.close()
        os._exit(0)  # leave at once: no atexit handler of the parent's runs twice


def run_ranks(fn, world: int = 2, timeout_s: float = 60.0) -> list:
    """``fn(rank, world)`` in ``world`` forked gloo ranks; what each returned, rank 0 first."""
    if not callable(fn):
        raise TypeError(f"fn must be a function of (rank, world), got {type(fn).__name__}")
    check_int("world", world, minimum=1)
    if not isinstance(timeout_s, int | float) or not timeout_s > 0:
        raise ValueError(f"timeout_s must be a positive number of seconds, got {timeout_s!r}")
    ctx = multiprocessing.get_context("fork")
    with tempfile.TemporaryDirectory(prefix="d2lgpu-ranks-") as tmp:
        store = str(Path(tmp) / "store")
        pipes = [ctx.Pipe(duplex=False) for _ in range(world)]
        procs = [
            ctx.Process(target=_rank_main, args=(fn, r, world, store, timeout_s, w), daemon=True)
            for r, (_, w) in enumerate(pipes)
        ]
        for p in procs:
            p.start()
        for _, w in pipes:
            w.close()
        try:
            return _collect([r for r, _ in pipes], timeout_s)
        finally:
            for p in procs:
                if p.is_alive():
                    p.kill()
                p.join(timeout=5)


def _collect(readers, timeout_s):
    deadline = time.monotonic() + timeout_s + 10  # the collectives' own timeout first
    results = []
    for rank, reader in enumerate(readers):
        if not reader.poll(max(deadline - time.monotonic(), 0.1)):
            raise RankFailed(
                rank,
                f"did not finish within {timeout_s} s: did every rank call the same collectives "
                "in the same order?",
            )
        try:
            status, payload = pickle.loads(reader.recv_bytes())
        except EOFError:
            raise RankFailed(rank, "died without a word (killed by a signal?)") from None
        if status == "error":
            raise RankFailed(rank, f"raised:\n{payload}")
        results.append(payload)
    return results


@dataclass(frozen=True)
class AllReduceCall:
    """One ``dist.all_reduce``: the tensor's shape and bytes, and the reduction."""

    shape: tuple
    nbytes: int
    op: str


@dataclass
class AllReduceLog:
    """The all-reduces of a block, in order (:func:`count_all_reduces`)."""

    calls: list[AllReduceCall] = field(default_factory=list)

    @property
    def count(self) -> int:
        return len(self.calls)

    @property
    def bytes(self) -> int:
        """The bytes all-reduced, summed over the calls (each rank's tensor, once)."""
        return sum(c.nbytes for c in self.calls)


def _op_name(op) -> str:
    for name in ("SUM", "AVG", "PRODUCT", "MIN", "MAX"):
        if op == getattr(dist.ReduceOp, name, None):
            return name
    return str(op)


@contextmanager
def count_all_reduces():
    """Record every ``torch.distributed.all_reduce`` called while the block runs.

    >>> with count_all_reduces() as log:
    ...     out = model(x)
    >>> log.count, log.bytes, log.calls[0].shape

    The module's attribute is replaced while the block runs, so calls written
    ``dist.all_reduce(...)`` are seen (``torch.distributed.nn``'s too); a name imported
    with ``from torch.distributed import all_reduce`` before the block is not. Collectives
    that DTensor runs go through other functions: ``CommDebugMode`` counts those.
    """
    log = AllReduceLog()
    original = dist.all_reduce

    def counted(tensor, *args, **kwargs):
        op = kwargs.get("op", args[0] if args else dist.ReduceOp.SUM)
        log.calls.append(AllReduceCall(tuple(tensor.shape), tensor.nbytes, _op_name(op)))
        return original(tensor, *args, **kwargs)

    dist.all_reduce = counted
    try:
        yield log
    finally:
        dist.all_reduce = original
