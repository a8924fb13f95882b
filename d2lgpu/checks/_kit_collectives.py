"""The collectives a rank calls, watched: what the rank-job checkers read to name a mistake.

In a rank, :class:`CollectiveWatch` replaces ``torch.distributed``'s collectives (:data:`KINDS`)
while a job runs, and records each call as a :class:`Call`: its kind, the shape, bytes and
storages it sends, ``async_op``, the reduction, its root, and a group that is not every rank;
``groups_made`` counts ``dist.new_group`` calls. An async call's waits are counted: on its
handle, on its future (``get_future()``, ``then()``, ``wait_all``, ``collect_all``), and an
``is_completed()`` or ``done()`` that answered True. An async all-reduce, broadcast or reduce
runs on a copy of its tensor, copied in at the first wait (or as it ends, where its future was
asked for): a read before the wait sees the rank's own values every time, and a write into the
tensor before it (a buffer reused, a division before the wait) is seen as ``written``. Each call is also
written as it starts to the rank's file (``path``), for the parent to read if the rank died.

A collective called from a thread of the answer's own, not the job's, is refused: threads launch
in whatever order they are scheduled, so the ranks' calls could differ. The parent reads the
records with :mod:`._kit_collective_reads`; the handles are :mod:`._kit_collective_handles`.
What it is not: :func:`d2lgpu.ranks.count_all_reduces`, the lessons' counter of all-reduces."""

from __future__ import annotations

import inspect
import threading
import weakref
from dataclasses import dataclass
from pathlib import Path

import torch
import torch.distributed as dist
import torch.distributed.distributed_c10d as c10d

from .._aliases import aliases_rebound
from ._kit_collective_handles import Reach, WatchedFuture, WatchedHandle, release
from ._util import CheckFailed

__all__ = [
    "KINDS",
    "Call",
    "CollectiveWatch",
    "describe",
]

# each collective, and the name of its argument whose bytes it sends (None: no tensor)
KINDS = {
    "all_reduce": "tensor",
    "broadcast": "tensor",
    "reduce": "tensor",
    "all_gather": "tensor",
    "all_gather_into_tensor": "input_tensor",
    "reduce_scatter": "input_list",
    "reduce_scatter_tensor": "input",
    "all_to_all": "input_tensor_list",
    "all_to_all_single": "input",
    "gather": "tensor",
    "scatter": "tensor",
    "send": "tensor",
    "recv": "tensor",
    "isend": "tensor",
    "irecv": "tensor",
    "barrier": None,
    "all_gather_object": None,
    "broadcast_object_list": None,
}


@dataclass
class Call:
    """One collective a rank called: ``waits`` counts the waits on its handle (async only)."""

    index: int
    kind: str
    shape: tuple
    nbytes: int
    async_op: bool
    op: str | None = None
    group: tuple | None = None  # the ranks of a group that is not every rank; () outside it
    waits: int = 0
    storages: tuple = ()  # the data_ptr of each sent tensor's storage: what it was a view of
    phase: str = ""  # what the rank was doing, when the job says (e.g. "in backward")
    root: str = ""  # "from rank 0" (src), "to rank 1" (dst): the same on every rank too
    held: tuple | None = None  # an async in-place call's (tensor, copy it runs on, values at
    # launch) until waited
    written: bool = False  # its tensor changed between the launch and the first wait

    def key(self) -> str:
        """What must match on every rank: the kind, the shape, the root and phase if any."""
        return " ".join(filter(None, (f"{self.kind} {list(self.shape)}", self.root, self.phase)))


def describe(call: Call) -> str:
    """``an all_reduce of shape (16, 6) (384 bytes)``, as a hint names a call."""
    article = "an" if call.kind[0] in "aeiou" else "a"
    if call.kind in ("barrier", "all_gather_object", "broadcast_object_list"):
        return f"{article} {call.kind}"
    return f"{article} {call.kind} of shape {tuple(call.shape)} ({call.nbytes} bytes)"


def _op_name(op) -> str | None:
    names = [n for n in ("SUM", "AVG", "PRODUCT", "MIN", "MAX") if op == getattr(dist.ReduceOp, n)]
    return None if op is None else next(iter(names), str(op))


def _payload(value) -> tuple[tuple, int]:
    if isinstance(value, torch.Tensor):
        return tuple(value.shape), value.nbytes
    if isinstance(value, list | tuple) and all(isinstance(t, torch.Tensor) for t in value):
        return (len(value), *(value[0].shape if value else ())), sum(t.nbytes for t in value)
    return (), 0


def _storages(value) -> tuple:
    tensors = value if isinstance(value, list | tuple) else [value]
    return tuple(t.untyped_storage().data_ptr() for t in tensors if isinstance(t, torch.Tensor))


def _group_ranks(group) -> tuple | None:
    if group is None or group is dist.group.WORLD:
        return None
    if group is dist.GroupMember.NON_GROUP_MEMBER:
        return ()
    try:
        ranks = tuple(dist.get_process_group_ranks(group))
    except Exception:  # noqa: BLE001 (a group torch cannot describe: read as every rank)
        return None
    return None if len(ranks) == dist.get_world_size() else ranks


_ROOTS = (("src", "from"), ("dst", "to"))  # a call's root, which every rank must name alike
HELD_BACK = frozenset({"all_reduce", "broadcast", "reduce"})  # async: until a wait (docstring)


_OFF_THREAD = (
    "{call} was called from a thread of your own, not the one your function was called on: "
    "threads run in whatever order they are scheduled, so the ranks can call their "
    "collectives in different orders (and reduce one rank's tensor with another's, or hang), "
    "and the caller goes on before the result is written. Call the collectives on the "
    "caller's thread (async_op=True already returns at once) and wait on the handles"
)


_OFF_THREAD_WAIT = (
    "the handle of {call} was waited on from a thread of your own, not the one your function "
    "runs on: the caller cannot tell when that wait ends, and reads the tensor whenever it "
    "goes on. Keep the handles and wait on them where your function runs (finish(), or "
    "before it returns)"
)


class CollectiveWatch:
    """Record the collectives called while installed (``with watch:``), each in ``calls``.
    ``path``: a file each call is appended to as it starts (``kind [shape]``, one a line).
    ``note(event, call)``: called with ``"launch"`` as each call starts, ``"wait"`` as its
    handle is waited on (``"polled"``: is_completed() answered True). ``phase``: what the job
    is doing, kept with each call. ``answer``: its module's names bound to a collective
    (``from torch.distributed import all_reduce``) meet the watch too (``aliases_rebound``)."""

    def __init__(self, path: str | None = None, note=None, answer=None):
        self.calls: list[Call] = []
        self.note, self.phase, self._answer, self._path = note, "", answer, path
        self.groups_made = 0  # process groups created (dist.new_group) while installed
        self._saved: list[tuple] = []
        self._aliases, self._inside, self._thread = None, False, threading.get_ident()
        self.refused: list[str] = []  # the hints of calls refused (a thread of the answer's)
        self.chained: list[Reach] = []  # whether a wait reached each future then() returned
        self.off_thread = _OFF_THREAD  # that hint, with {call}: a job may give its own words
        # the copies async calls run on, by id: the checker's, which gloo may hold a while
        self._own: dict[int, weakref.ref] = {}

    def owns(self, tensor) -> bool:
        """Whether ``tensor`` is one of the watch's own copies (what an async call ran on)."""
        ref = self._own.get(id(tensor))
        return ref is not None and ref() is tensor

    def mark(self) -> int:
        """Where the calls from now on start: ``calls[mark:]``."""
        return len(self.calls)

    def unwaited(self, since: int = 0) -> list[Call]:
        """The async calls from ``since`` on whose handle nobody waited, or with a future
        chained by ``then()`` that nobody waited on (its callback may not have run)."""
        open_ = {id(c) for f in self.chained if not f.covered for c in f.calls}
        return [c for c in self.calls[since:] if c.async_op and (not c.waits or id(c) in open_)]

    def written(self, since: int = 0) -> list[Call]:
        """The async calls from ``since`` on whose tensor was written while they were in
        flight (seen at their first wait)."""
        return [c for c in self.calls[since:] if c.written]

    def _record(self, kind, bound) -> Call:
        sent = bound.get(KINDS[kind])  # None for a call that sends no tensor
        shape, nbytes = _payload(sent)
        root = "".join(f"{w} rank {bound[a]}" for a, w in _ROOTS if bound.get(a) is not None)
        call = Call(len(self.calls), kind, shape, nbytes, bool(bound.get("async_op", False)),
                    _op_name(bound.get("op")), _group_ranks(bound.get("group")),
                    storages=_storages(sent), phase=self.phase, root=root)  # fmt: skip
        if threading.get_ident() != self._thread:
            self._refuse(self.off_thread.format(call=describe(call)))
        if call.async_op and kind in HELD_BACK and isinstance(sent, torch.Tensor):
            launched = sent.detach().clone()  # the collective runs on a copy of its own
            call.held = (sent, launched.clone(), launched)
            self._own.update((id(t), weakref.ref(t)) for t in call.held[1:])
        self.calls.append(call)
        if self._path is not None:
            with open(self._path, "a") as log:
                log.write(call.key() + "\n")
        if self.note is not None:
            self.note("launch", call)
        return call

    def _refuse(self, hint: str) -> None:
        """Refuse a call or a wait from a thread of the answer's own: the hint is kept for the
        job's end, and written beside the log for the parent where the rank hangs or dies."""
        self.refused.append(hint)
        if self._path is not None:  # read by refused_hint
            Path(f"{self._path}.refused").write_text(self.refused[0])
        raise CheckFailed(hint)

    def waited(self, call: Call, finished: bool = False) -> None:
        """Count a wait on ``call``'s handle; ``finished``: the collective is done."""
        if threading.get_ident() != self._thread:
            self._refuse(_OFF_THREAD_WAIT.format(call=describe(call)))
        call.waits += 1
        if finished:
            release(call)
        if self.note is not None:
            self.note("polled" if finished else "wait", call)  # polled: is_completed(), done()

    def _wrap(self, kind, original):
        signature = inspect.signature(original)

        def watched(*args, **kwargs):
            if self._inside:  # a collective torch calls inside another (all_gather_object's)
                return original(*args, **kwargs)
            bound = signature.bind_partial(*args, **kwargs).arguments
            call = self._record(kind, bound)
            if call.held is not None:
                args, kwargs = (), {**bound, KINDS[kind]: call.held[1]}
            self._inside = True
            try:
                work = original(*args, **kwargs)
            finally:
                self._inside = False
            if call.async_op and work is not None:
                return WatchedHandle(work, call, self)
            return work

        return watched

    def _new_group(self, original):
        def new_group(*args, **kwargs):
            self.groups_made += 1
            return original(*args, **kwargs)

        return new_group

    def _collect_all(self, original):
        # torch.futures.wait_all and collect_all both join futures with torch._C._collect_all
        def collect_all(futures):
            calls = [c for f in futures for c in getattr(f, "calls", ())]
            if not calls:
                return original(futures)
            joined = tuple(f.reach for f in futures if isinstance(f, WatchedFuture))
            return WatchedFuture(original(futures), calls, self, joined)

        return collect_all

    def __enter__(self):
        wrapped = {k: self._wrap(k, getattr(dist, k)) for k in KINDS if hasattr(dist, k)}
        changes = [(dist, k, w) for k, w in wrapped.items()]
        # and where torch.distributed takes them from: distributed_c10d.all_reduce(...) too
        changes += [
            (c10d, k, w) for k, w in wrapped.items() if getattr(c10d, k) is getattr(dist, k)
        ]
        changes.append((torch._C, "_collect_all", self._collect_all(torch._C._collect_all)))
        changes.append((dist, "new_group", self._new_group(dist.new_group)))
        self._saved = [(owner, name, getattr(owner, name)) for owner, name, _ in changes]
        for owner, name, value in changes:
            setattr(owner, name, value)
        self._thread = threading.get_ident()  # the job's: the one collectives are called on
        self._aliases = aliases_rebound(self._answer, self._saved)
        self._aliases.__enter__()
        return self

    def __exit__(self, *exc):
        if self._aliases is not None:
            self._aliases.__exit__(None, None, None)
            self._aliases = None
        for owner, name, original in reversed(self._saved):
            setattr(owner, name, original)
        self._saved = []
