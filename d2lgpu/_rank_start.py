"""How :mod:`d2lgpu.ranks` starts a gloo rank: the start method, what travels to the rank,
the processes, and what a rank does first (join the group) and last (send its outcome).

How a rank starts (:func:`start_method`). A fresh interpreter (``spawn``) cannot import a
function defined in a notebook cell (chapter 5 shows why), so where it is safe the ranks
are forked from the kernel: a forked child already has the function. It is not safe where
torch sees a GPU: the kernel's first ``backward`` there starts autograd's per-device
threads, after which any ``backward`` in a forked child raises "Unable to handle autograd's
threading in combination with fork-based multiprocessing", and a kernel that has used CUDA
leaves children that cannot ("CUDA error: initialization error"). There the ranks are
forked from Python's fork server, an interpreter that has run nothing else, and the
function is sent to them pickled by value with ``cloudpickle``, so a cell's function, the
helpers and classes it calls and the globals it reads travel with it (copies, as a fork
would give). A child of the fork server sees the environment variables of the moment the
server started.

What it is not: the runner (:func:`d2lgpu.ranks.rank_replies`, which waits for the ranks and
says which one to blame), nor anything a lesson calls.
"""

from __future__ import annotations

import functools
import importlib
import io
import linecache
import marshal
import multiprocessing
import os
import sys
import tempfile
import traceback
import types
import weakref
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

import cloudpickle
import torch
import torch.distributed as dist

from ._fork_probe import forked_backward_works
from ._op_send import defined_here, from_a_cell, op_reduction

__all__ = [
    "CannotSend",
    "join_gloo",
    "note_autograd_threads",
    "rank_processes",
    "send_outcome",
    "start_method",
]

START_ENV_VAR = "D2LGPU_RANKS_START"  # "fork" or "forkserver": overrides start_method()
START_METHODS = ("fork", "forkserver")
# What the fork server imports once, so that each rank forked from it starts at once: the
# modules whose functions the chapters' and the checkers' ranks run.
_PRELOAD = [
    "torch",
    "torch.distributed",
    "torch.distributed.tensor",
    "torch.distributed.pipelining",
    "cloudpickle",
    "d2lgpu",
    "d2lgpu.ranks",
    "d2lgpu.checks._ranks",
    "d2lgpu.checks._ch09_tp_problem",
    "d2lgpu.checks.ch09_tensor_parallel",
    "d2lgpu.checks.ch10_inside_ddp",
    "d2lgpu.checks.ch10_ddp_by_hand",
]


def send_outcome(conn, message) -> None:
    """In a rank: send ``message`` (a ``(status, payload)`` pair) to the parent's reader."""
    # cloudpickle, not multiprocessing's pickling: that passes a tensor as shared memory the
    # parent would fetch from this rank later, after the rank has exited. And a rank started
    # by the fork server may return an object of a class that came by value.
    conn.send_bytes(cloudpickle.dumps(message))


def join_gloo(rank: int, world: int, store_path: str, timeout_s: float) -> None:
    """In a rank: one CPU thread, then join the gloo group of ``world`` ranks at ``store_path``.

    Collectives give up after ``timeout_s``. Returns once every rank has joined.
    """
    torch.set_num_threads(1)
    store = dist.FileStore(store_path, world)
    timeout = timedelta(seconds=timeout_s)
    dist.init_process_group("gloo", store=store, rank=rank, world_size=world, timeout=timeout)
    # Every rank has connected before any goes on: one that fails or finishes at once and
    # leaves must not close connections another rank is still opening (it would then
    # fail with "Connection closed by peer" instead of reporting its own outcome).
    dist.barrier()


def _accelerator_visible() -> bool:
    """Whether torch sees a GPU (CUDA, ROCm or Apple's MPS), without initializing it."""
    if torch.cuda.is_available():
        return True
    mps = getattr(torch.backends, "mps", None)
    return bool(mps is not None and mps.is_available())


_autograd_threads = False  # set by note_autograd_threads()


def note_autograd_threads() -> None:
    """Say that this process has run autograd on a device other than the CPU (a fake or
    meta CUDA tensor included: ``d2lgpu.scale`` does), which starts autograd's per-device
    threads; a forked child's ``backward`` then raises "Unable to handle autograd's threading
    in combination with fork-based multiprocessing", so :func:`start_method` answers
    ``"forkserver"`` from then on."""
    global _autograd_threads
    _autograd_threads = True


def start_method() -> str:
    """How :func:`rank_processes` starts ranks: ``"fork"`` where that is safe, else ``"forkserver"``.

    ``"forkserver"`` where torch sees a GPU (see the module's docstring for why), after
    :func:`note_autograd_threads`, where a forked child's ``backward`` fails (autograd's
    threads started by a way not noted: :mod:`d2lgpu._fork_probe`), or where the platform
    cannot fork;
    ``$D2LGPU_RANKS_START`` chooses either one.
    """
    chosen = os.environ.get(START_ENV_VAR, "").strip()
    if chosen:
        if chosen not in START_METHODS:
            raise ValueError(
                f"{START_ENV_VAR} must be one of {', '.join(START_METHODS)}, got {chosen!r}"
            )
        return chosen
    if (
        _autograd_threads
        or _accelerator_visible()
        or "fork" not in multiprocessing.get_all_start_methods()
    ):
        return "forkserver"
    if not forked_backward_works():  # autograd's threads started, by a way not noted
        note_autograd_threads()
        return "forkserver"
    return "fork"


class CannotSend(TypeError):
    """What the ranks should run cannot be pickled for ranks a fork server starts."""


class _CodeKeepingPickler(cloudpickle.Pickler):
    """cloudpickle, but code objects keep their file name (cloudpickle renames it
    ``<dynamic-code>``), so that a traceback in a rank still points at the reader's cell
    and line; the source lines of those files that exist only in memory (notebook cells)
    are collected to travel along."""

    def __init__(self, file):
        super().__init__(file)
        self.buffer = file
        self.filenames: set[str] = set()

    def reducer_override(self, obj):
        if isinstance(obj, types.CodeType):
            # marshal keeps every field; the rank runs the same Python as this process.
            self.filenames.add(obj.co_filename)
            return marshal.loads, (marshal.dumps(obj),)
        if isinstance(obj, types.ModuleType) and _sent_by_name(obj):
            return module_at, (obj.__name__,)
        reduced = op_reduction(obj)  # an operator: by its name, or a cell's by its definition
        if reduced is not None:
            return reduced
        if isinstance(obj, functools._lru_cache_wrapper) and from_a_cell(obj.__wrapped__):
            # a cell's @functools.cache: pickled by its name, which the rank's __main__ lacks
            return _cached, (obj.__wrapped__, obj.cache_parameters())
        if isinstance(obj, _WEAK):  # a cache of weak references: this process's objects only
            return type(obj), ()
        return super().reducer_override(obj)


# Weak containers cannot be pickled; what they hold refers to this process's objects, which
# a rank does not share: they travel empty, as a cell's functools.cache does.
_WEAK = (weakref.WeakKeyDictionary, weakref.WeakValueDictionary, weakref.WeakSet)


def _cached(fn, parameters: dict):
    """``fn`` under a new ``functools.lru_cache`` of ``parameters``: a cache sent to a rank
    starts empty there."""
    return functools.lru_cache(maxsize=parameters["maxsize"], typed=parameters["typed"])(fn)


def module_at(name: str) -> types.ModuleType:
    """The module ``name``, imported, or reached from its top-level package by attributes
    (``"torch._C._functions"``): how a rank finds a module that was sent by its name.

    Not ``pkgutil.resolve_name``: that imports each dotted prefix, which runs a module again
    where it is missing from ``sys.modules`` (torch.distributed's then aborts the process);
    attributes reach the module that is there without running anything."""
    if name in sys.modules:
        return sys.modules[name]
    top, *path = name.split(".")
    found: Any = importlib.import_module(top)
    for part in path:
        found = getattr(found, part)
    return found


def _sent_by_name(module: types.ModuleType) -> bool:
    """Whether ``module`` must travel by its name, where cloudpickle would not send it so.

    cloudpickle sends a plain module that is in ``sys.modules`` by its name; others it copies,
    classes and all, or cannot send. A module an extension made is not in ``sys.modules``
    (torch._C._functions, which ``once_differentiable`` reads; torch.ops.aten): its copy is
    not the rank's torch, and loading it fails in a rank the fork server starts
    ("type object 'AccumulateGrad' has no attribute '_input_metadata'"). A module of a
    subclass of ``ModuleType`` (torch.ops) cannot be sent at all. Either is sent by its name
    where the name reaches this very module."""
    name = getattr(module, "__name__", None)
    if not isinstance(name, str):
        return False
    if type(module) is types.ModuleType and name in sys.modules:
        return False  # cloudpickle's own way
    if name.split(".", 1)[0] not in sys.modules:
        return False
    try:
        return module_at(name) is module
    except (AttributeError, ImportError):
        return False


class _Packed:
    """What a rank runs, pickled by value, with the in-memory source of its cells."""

    def __init__(self, obj):
        ops = defined_here()  # a cell's operators, registered in the rank first
        try:
            pickler = self._dump((ops, obj))
        except Exception:  # noqa: BLE001 (an operator of an old cell, maybe: tried without)
            try:
                pickler = self._dump((tuple(op for op in ops if self._sendable(op)), obj))
            except Exception as error:  # noqa: BLE001 (named to the reader, whatever it is)
                raise CannotSend(
                    f"cannot send {obj!r} to the ranks: {type(error).__name__}: {error}. Define "
                    "the function at the top level of a cell; it may read globals that can be "
                    "pickled (tensors, numbers, modules, functions, classes), not open files, "
                    "locks or CUDA streams"
                ) from error
        self.blob = pickler.buffer.getvalue()
        self.sources = {
            name: linecache.cache[name]
            for name in pickler.filenames
            if name in linecache.cache and not os.path.exists(name)
        }

    @staticmethod
    def _dump(obj) -> _CodeKeepingPickler:
        pickler = _CodeKeepingPickler(io.BytesIO())
        pickler.dump(obj)
        return pickler

    @classmethod
    def _sendable(cls, op) -> bool:
        try:
            cls._dump(op)
        except Exception:  # noqa: BLE001 (whatever stops it, it stays behind)
            return False
        return True

    def unpack(self):
        linecache.cache.update(self.sources)
        return cloudpickle.loads(self.blob)[1]


def _rank_entry(main, rank, world, store_path, payload, conn, *args):
    if isinstance(payload, _Packed):
        try:
            payload = payload.unpack()
        except BaseException:  # noqa: BLE001 (reported to the parent, whatever it is)
            send_outcome(conn, ("error", "could not load what it runs:\n" + traceback.format_exc()))
            conn.close()
            os._exit(0)
    main(rank, world, store_path, payload, conn, *args)


@contextmanager
def rank_processes(main, world: int, payload, *args):
    """Start ``main(rank, world, store_path, payload, conn, *args)`` in ``world`` processes.

    Yields one reader per rank, rank 0 first: ``main`` sends its outcome through ``conn``
    (with :func:`send_outcome`) and leaves with ``os._exit``. ``store_path`` is a fresh file for a
    ``torch.distributed.FileStore``. ``main`` is a module's function; ``payload`` (the
    reader's function, say) travels by value when the ranks are not forked from this
    process (:func:`start_method`). Ranks still running when the block ends are killed.
    """
    method = start_method()
    # typeshed gives a context chosen by a str its base class, which lacks Process
    ctx: Any = multiprocessing.get_context(method)
    if method == "forkserver":
        ctx.set_forkserver_preload(_PRELOAD)
        payload = _Packed(payload)
    with tempfile.TemporaryDirectory(prefix="d2lgpu-ranks-") as tmp:
        store = str(Path(tmp) / "store")
        pipes = [ctx.Pipe(duplex=False) for _ in range(world)]
        procs = [
            ctx.Process(
                target=_rank_entry, args=(main, r, world, store, payload, w, *args), daemon=True
            )
            for r, (_, w) in enumerate(pipes)
        ]
        for p in procs:
            p.start()
        for _, w in pipes:
            w.close()
        try:
            yield [r for r, _ in pipes]
        finally:
            for p in procs:
                if p.is_alive():
                    p.kill()
                p.join(timeout=5)
