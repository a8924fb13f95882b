"""``10.allreduce_grads``: what a rank sees of the learner's call besides its collectives and
gradients, and the cost rules that read a call's record.

In a rank, :class:`HostCopies` is installed around the learner's call: a
``TorchFunctionMode`` that notes the first gradient copied to the host (``.cpu()`` or
``.to("cpu")``: on a CPU the same tensor, on a GPU a copy an all-reduce then leaves
``p.grad`` out of), and says which gradients no collective carried (the call records'
storages), the first read of a value on the host (``bool(t)``, ``t.item()``) and the
buffers a collective sent; :func:`host_reads` sees the reads where a mode is not seen (inside
autograd's hooks, for ``10.overlap_ddp``). In the parent, :func:`check_cost` reads each
call's record: the collectives (all-reduces only, each gradient's bytes once, in its own
dtype, no buffer), the process groups it created (one per call is a set-up per step), the
host copies and reads; :func:`zero_step_advice` is the hint's
advice when the ranks' collectives first differ at ``ZERO_STEP``, where only rank 0's
gradient of ``body.0.weight`` is all zero.
"""

from __future__ import annotations

import math
import weakref
from contextlib import contextmanager

import torch
from torch.overrides import TorchFunctionMode

from .._device_calls import flat
from ._kit import patched
from ._kit_collectives import describe
from ._util import CheckFailed

__all__ = [
    "ZERO_STEP",
    "HostCopies",
    "check_cost",
    "host_read_hint",
    "host_reads",
    "misplaced_divisions_hint",
    "needed_and_sent",
    "never_sent",
    "not_all_reduce",
    "zero_step_advice",
]

ZERO_STEP = 1  # the step whose batch starts with zeros (:func:`._ranks.batch`)


def zero_step_advice(mismatch) -> str | None:
    """10.allreduce_grads' words when the ranks first differ at ``ZERO_STEP``, where only
    rank 0's gradient of ``body.0.weight`` is all zero: a rank that skipped it."""
    if f"at step {ZERO_STEP}" not in mismatch or "at step 0" in mismatch:
        return None
    return (
        f"Every rank must call the same collectives whatever its gradients hold: at step "
        f"{ZERO_STEP} rank 0's share of the batch is zeros (padding), so its gradient of "
        "body.0.weight is all zero while the others' are not. Decide what to all-reduce from "
        "what every rank shares (p.grad is None), never from a gradient's values: an all-zero "
        "gradient is all-reduced too, and a test such as `if p.grad.any()` skips it on one rank "
        "only and reads every gradient back to the host (a sync per parameter)"
    )


def _to_host(func, args, kwargs) -> bool:
    if func is torch.Tensor.cpu:
        return True
    if func is not torch.Tensor.to:
        return False
    targets = [*args[1:], kwargs.get("device")]
    return any(isinstance(t, str | torch.device) and torch.device(t).type == "cpu" for t in targets)


_T = torch.Tensor
_READS = {_T.__bool__: "bool()", _T.item: ".item()", _T.tolist: ".tolist()",
          _T.__float__: "float()", _T.__int__: "int()",
          _T.__format__: "an f-string of a tensor", _T.__repr__: "print() of a tensor",
          _T.__str__: "print() of a tensor"}  # fmt: skip


class HostCopies(TorchFunctionMode):
    """While installed: ``copied``, the name of the first of ``model``'s gradients (or a view
    of one) that went through ``.cpu()`` or ``.to("cpu")``, else None; ``read``, the first
    read on the host (``bool(t)``, ``t.item()``...) of a value that a GPU would hold: the
    model's parameters and gradients, what is computed from them, and tensors made with a
    ``device`` named. A tensor made on the host (``torch.randperm(n)``) is read for free."""

    def __init__(self, model):
        super().__init__()
        self._names = {
            p.grad.untyped_storage().data_ptr(): n
            for n, p in model.named_parameters()
            if p.grad is not None
        }
        self._buffers = {b.untyped_storage().data_ptr(): n for n, b in model.named_buffers()}
        # the model's storages, and what was computed from them, by id (weak: ids are reused)
        self._storages = {p.untyped_storage().data_ptr() for p in model.parameters()}
        self._storages |= set(self._names)
        self._made: dict[int, weakref.ref] = {}
        self.copied: str | None = None
        self.read: str | None = None

    def _on_device(self, values) -> bool:
        return any(
            isinstance(v, torch.Tensor)
            and ((r := self._made.get(id(v))) is not None and r() is v
                 or v.layout == torch.strided and v.untyped_storage().data_ptr() in self._storages)
            for v in flat(values)
        )  # fmt: skip

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if self.copied is None and args and isinstance(args[0], torch.Tensor):
            if _to_host(func, args, kwargs):
                self.copied = self._names.get(args[0].untyped_storage().data_ptr())
        if self.read is None and func in _READS and self._on_device(args[:1]):
            self.read = _READS[func]
        out = func(*args, **kwargs)
        if kwargs.get("device") is not None or self._on_device([args, kwargs]):
            self._made.update((id(t), weakref.ref(t)) for t in flat([out])
                              if isinstance(t, torch.Tensor))  # fmt: skip
        return out

    def buffers_sent(self, calls) -> list[str]:
        """The model's buffers that a collective in ``calls`` sent (or a view of them)."""
        return [self._buffers[p] for c in calls for p in c.storages if p in self._buffers]

    def uncarried(self, calls) -> list[str]:
        """The gradients that no collective in ``calls`` sent, nor a view of them."""
        sent = {ptr for c in calls for ptr in c.storages}
        return [n for ptr, n in self._names.items() if ptr not in sent]


@contextmanager
def host_reads():
    """While installed, the yielded list gets the first read of any tensor's value on the
    host (``bool()``, ``.item()``...): the methods patched, since autograd's hooks run where a
    ``TorchFunctionMode`` is not seen."""
    seen: list[str] = []

    def wrap(method, name):
        def read(self, *args, **kwargs):
            seen.append(name)
            return method(self, *args, **kwargs)

        return read

    with patched(*((torch.Tensor, m.__name__, wrap(m, n)) for m, n in _READS.items())):
        yield seen


def host_read_hint(read: str, who: str, where: str) -> str:
    """The hint for ``who`` (e.g. "your function") that read a tensor's value on the host."""
    return (
        f"{who} read a tensor's value on the host ({read}, as `if not "
        f"torch.isfinite(g).all():` does) {where}: on a GPU each read is a sync, the host "
        "waits for the device (and no more work is queued meanwhile). Send the gradients "
        "without looking at their values"
    )


def needed_and_sent(s) -> tuple[int, int]:
    """In the record ``s`` of one call: the bytes of its gradients, and the bytes its
    collectives carried."""
    needed = sum(g.nbytes for g in s["local"].values() if g is not None)
    return needed, sum(c.nbytes for c in s["calls"])


def never_sent(s, name) -> bool:
    """Whether, in the record ``s`` of one call, no collective carried ``name``'s gradient:
    none sent it (or a view of it), and fewer bytes went than the gradients hold (a copy in
    a flat buffer, or a clone, carried it)."""
    needed, sent = needed_and_sent(s)
    return name in s.get("uncarried", ()) and sent < needed


def not_all_reduce(calls, where: str = "", alone: bool = False) -> str:
    """What the first collective of ``calls`` that is no all-reduce does instead, "" if none:
    ``where`` (step and rank) follows the call's name, ``alone`` says no all-reduce was called."""
    other = next((c for c in calls if c.kind != "all_reduce"), None)
    if other is None:
        return ""
    head = f"your function called {describe(other)}{' ' * bool(where)}{where}"
    head += " and no all-reduce: " if alone else ": "
    if other.kind == "reduce":  # then a broadcast, or not
        return head + ("a reduce to one rank, then a broadcast from it, is two collectives "
                       "where one does the work: dist.all_reduce leaves the same sum on every "
                       "rank at once" if any(c.kind == "broadcast" for c in calls) else
                       "dist.reduce leaves the sum on its dst rank alone, and the other ranks' "
                       "tensors hold whatever the reduction left in them. dist.all_reduce "
                       "leaves the same sum on every rank")  # fmt: skip
    if "gather" in other.kind:
        return head + (
            "gathering every rank's gradient to average it yourself moves and holds world_size "
            "copies of it. dist.all_reduce(p.grad) sums it in place on every rank, with no copy"
        )
    return head + "only dist.all_reduce leaves the same sum on every rank"


def check_cost(records) -> None:
    """Each call's collectives: all-reduces that carry each gradient once, nothing else; no
    process group made at every call, no gradient copied to the host."""
    for step in range(len(records[0]["steps"])):
        for rank, record in enumerate(records):
            s = record["steps"][step]
            calls = s["calls"]
            where = f"(step {step}, rank {rank})"
            other = next((c for c in calls if c.kind != "all_reduce"), None)
            if other is not None and all(c.kind != "all_reduce" for c in calls):
                raise CheckFailed(
                    f"{not_all_reduce(calls, where, alone=True)}; then divide by the world size"
                )
            if other is not None:
                raise CheckFailed(
                    f"besides all-reduces your function called {describe(other)} {where}: "
                    f"an extra collective ({len(calls)} collectives in all). The all-reduce "
                    "already leaves the same sum on every rank; anything more is communication "
                    "that costs time and changes nothing"
                )
            if s.get("buffers_sent"):
                raise CheckFailed(
                    f"your function all-reduced the model's buffer {s['buffers_sent'][0]} "
                    f"{where}: an extra collective, and a buffer changed that is no gradient. "
                    "Average only the parameters' p.grad; buffers (BatchNorm's running "
                    "statistics) are left alone"
                )
            needed, sent = needed_and_sent(s)
            grads = sum(g is not None for g in s["local"].values())
            elements = sum(g.numel() for g in s["local"].values() if g is not None)
            if needed < sent and sum(math.prod(c.shape) for c in calls) == elements:
                raise CheckFailed(
                    f"your function all-reduced {sent} bytes for {needed} bytes of gradients "
                    f"{where}, each element once: in a wider dtype than the gradients' (a copy "
                    ".double() or .to(torch.float64) of a float32 gradient), which sends more "
                    "bytes for no more precision in the average. All-reduce each gradient in "
                    "its own dtype, p.grad itself"
                )
            if sent > needed and len(calls) < grads:  # flat buffers that carry more
                raise CheckFailed(
                    f"your function all-reduced {sent} bytes for {needed} bytes of gradients "
                    f"{where}, {sent - needed} bytes more, in {len(calls)} all-reduce(s): its "
                    "flat buffer holds more than the gradients (zeros in place of a parameter "
                    "that has no gradient, padding, a buffer). Put in it only the gradients "
                    "that are not None"
                )
            if sent > needed:
                raise CheckFailed(
                    f"your function all-reduced {sent} bytes for {needed} bytes of gradients "
                    f"{where}, in {len(calls)} all-reduces: an extra collective. All-reduce "
                    "each gradient once (model.parameters() lists a parameter shared by two "
                    "layers once; state_dict() and named_modules() list it under each name)"
                )
            if sent < needed and sum(math.prod(c.shape) for c in calls) >= elements:
                raise CheckFailed(
                    f"your function all-reduced {sent} bytes for {needed} bytes of gradients "
                    f"{where}: a flat buffer in a narrower dtype than the gradients' "
                    "(torch.zeros(n) is float32; this model is float64) rounds them. Make it "
                    "in the gradients' own dtype (torch.cat, or torch.zeros(n, dtype=g.dtype)), "
                    "one buffer per dtype"
                )
            if s.get("host_read"):
                raise CheckFailed(host_read_hint(s["host_read"], "your function", where))
            if step and s.get("groups_made"):
                raise CheckFailed(
                    "your function created a new process group (dist.new_group) at each call, "
                    f"again at step {step} (rank {rank}): every rank takes part in setting up a group, a collective set-up "
                    "at each step that costs more than the all-reduces. All-reduce over the "
                    "default group (leave out group=), or make a group once, outside the function"
                )
            if s.get("host_copy"):
                raise CheckFailed(
                    f"your function copied {s['host_copy']}'s gradient to the host (.cpu() or "
                    f".to('cpu')) {where}: on a CPU that is the same tensor, on a GPU a copy, "
                    "and an all-reduce of the copy leaves p.grad as it was (copied back, it "
                    "costs two copies and a sync per gradient). All-reduce p.grad itself, in "
                    "place, on its own device: NCCL and gloo both take GPU tensors"
                )


def misplaced_divisions_hint(steps, step) -> str | None:
    """The hint where a rank's divisions by the world size did not reach every gradient once:
    every gradient is the sum over the ranks divided ``k`` times, some ``k`` 0 and some not (a
    division after the loop, callbacks made in a loop that read the loop variable when they
    run, a division of some parameters only); None otherwise. ``steps``: each rank's record of
    one call."""
    world = len(steps)
    names = [n for n, g in steps[0]["local"].items() if g is not None]
    totals = [sum(t["local"][n] for t in steps) for n in names]  # the sums over the ranks
    for rank, s in enumerate(steps):
        times = [_divisions(s["after"][n], total, world, len(names))
                 for n, total in zip(names, totals, strict=True)]  # fmt: skip
        ks = [k for k in times if k is not None]  # None: neither a sum nor one divided (a race)
        if len(ks) < 2 or 0 not in ks or max(ks) == 0:
            continue
        sums = [n for n, k in zip(names, times, strict=True) if k == 0]
        divided = ", ".join(
            f"{n} {k} time{'s' * (k > 1)}" for n, k in zip(names, times, strict=True) if k
        )
        return (
            f"the divisions by the world size did not reach every gradient once (step {step}, rank "
            f"{rank}): {', '.join(sums)} stayed the sum over the ranks, and {divided} divided. "
            "A division after the loop reaches only its last gradient; a callback or lambda "
            "made in a loop reads the loop variable when it runs, not when it was made (a "
            "late-bound closure: bind it when made, lambda fut, g=p.grad: g.div_(n)). Divide "
            "each gradient once, inside the loop or after the waits"
        )
    return None


def _divisions(got, total, world, most) -> int | None:
    """How many times ``got`` is ``total`` divided by ``world`` (0 to ``most``), or None."""
    for k in range(most + 1):
        if (
            got is not None
            and got.shape == total.shape
            and torch.allclose(got, total / world**k, 1e-5, 1e-7)
        ):
            return k
    return None
