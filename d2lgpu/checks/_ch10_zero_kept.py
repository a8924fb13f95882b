"""What a ``10.shard_optimizer`` rank keeps outside its optimizers: looked for in the rank
(:class:`KeptScan`: every tensor made since the answer was built and still kept, wherever it
is, after the step before the last and after the last) and judged in the parent
(:func:`compare_kept`): Adam's moments of parameters the rank does not own, or room for them
that no step wrote, and the moments of its own parameters kept a second time.
"""

from __future__ import annotations

import collections
import io
import pickle
import types
import warnings
import weakref

import torch

from ._kit import made_since
from ._util import CheckFailed

__all__ = ["KeptScan", "compare_kept", "contains", "mix_of", "room_kept"]


class KeptScan:
    """Two looks at what a rank made since ``before`` (:func:`._kit.tensors_alive`) and kept:
    floating-point tensors of ``numel`` elements or more, not the job's own (``ours``).
    :meth:`look` after the step before the last; :meth:`record` after the last gives each
    tensor's content, flat, and where the same tensor was kept at the look, its content then
    (or None). A look reads every object the rank's job made (what the rank was forked with
    is frozen, :func:`._ranks._watched_job`), without a garbage collection."""

    def __init__(self, before, numel: int):
        self.before, self.numel = before, numel
        self.then: list[tuple[weakref.ref, torch.Tensor]] = []

    def _found(self, ours) -> list[torch.Tensor]:
        ours = [*ours, *(copy for _, copy in self.then)]
        return [t for t in made_since(self.before, ours)
                if t.is_floating_point() and t.numel() >= self.numel]  # fmt: skip

    def look(self, ours) -> None:
        self.then = [(weakref.ref(t), _flat(t)) for t in self._found(ours)]

    def record(self, ours, holder=None) -> tuple[list, list, list]:
        """What is kept after the last step, flat, with what ``holder`` (the answer's
        instance) keeps in other forms than a tensor (:func:`other_forms`); each one's
        content at the look (or None); and each one's form in words."""
        found = self._found(ours)
        then = [next((copy for ref, copy in self.then if ref() is t), None) for t in found]
        others = [] if holder is None else other_forms(holder, self.numel)
        forms = [f"a tensor of {t.numel()} elements" for t in found] + [w for _, w in others]
        kept = [_flat(t) for t in [*found, *(t for t, _ in others)]]
        return kept, [*then, *(None for _ in others)], forms


_SKIPPED = (torch.nn.Module, torch.optim.Optimizer, types.ModuleType, types.FunctionType,
            types.MethodType, types.BuiltinFunctionType)  # fmt: skip


def other_forms(holder, numel: int, depth: int = 8) -> list[tuple[torch.Tensor, str]]:
    """What ``holder`` (an answer's instance) and its class keep, within ``depth`` steps, in
    other forms than a tensor of their own, as tensors of ``numel`` elements or more, each
    with its form in words: ``torch.save`` or pickle bytes loaded back (a ``BytesIO``'s too,
    the tensors they hold), numpy arrays, and lists of numbers (``tolist()``)."""
    todo, found = [(holder, 0, False), (type(holder), 0, False)], []
    seen: dict[int, object] = {}  # by id(), each kept alive so that no id() is used again
    while todo:
        obj, level, loaded = todo.pop()
        if id(obj) in seen or level > depth or isinstance(obj, _SKIPPED):
            continue
        seen[id(obj)] = obj
        children: list = []
        if isinstance(obj, torch.Tensor):
            if loaded and obj.is_floating_point() and obj.numel() >= numel:
                found.append((obj, "bytes (torch.save or pickle of a state_dict(), say)"))
        elif isinstance(obj, io.BytesIO | bytes | bytearray | memoryview):
            blob = obj.getvalue() if isinstance(obj, io.BytesIO) else bytes(obj)
            children, loaded = ([] if len(blob) < numel else [_loaded(blob)]), True
        elif type(obj).__module__ == "numpy" and getattr(obj, "size", 0) >= numel:
            found += [(t, "a numpy array") for t in _as_tensor(obj)]
        elif isinstance(obj, list) and _of_numbers(obj):
            found += [(t, "a list of numbers (tolist())") for t in _as_tensor(obj, numel)]
        elif isinstance(obj, dict):
            children = [*obj.keys(), *obj.values()]
        elif isinstance(obj, list | tuple | set | frozenset | collections.deque):
            children = list(obj)
        elif hasattr(obj, "__dict__") and not isinstance(obj, type) or obj is type(holder):
            children = list(vars(obj).values())
        todo += [(child, level + 1, loaded) for child in children]
    return found


def _loaded(blob: bytes):
    """``blob`` loaded back: by ``torch.load`` (weights only), else by ``pickle``; None."""
    try:
        with warnings.catch_warnings():  # a pickle's protocol, which torch.load warns of
            warnings.simplefilter("ignore")
            return torch.load(io.BytesIO(blob), map_location="cpu", weights_only=True)
    except Exception:  # noqa: BLE001 - any bytes at all, of the answer's own
        pass
    try:
        return pickle.loads(blob)  # noqa: S301 - the answer's own bytes, in its own rank
    except Exception:  # noqa: BLE001
        return None


def _of_numbers(values: list) -> bool:
    """Whether ``values`` is a list of floats, or of such lists, by its first elements."""
    first = values
    while isinstance(first, list) and first:
        first = first[0]
    return isinstance(first, float)


def _as_tensor(values, numel: int = 0) -> list[torch.Tensor]:
    """``values`` (a numpy array, a list of numbers or of lists) as one float tensor, of
    ``numel`` elements or more; none where it holds other things."""
    try:
        t = torch.as_tensor(values).double()
    except (TypeError, ValueError, RuntimeError):
        return []
    return [t] if t.numel() >= numel else []


def _flat(t: torch.Tensor) -> torch.Tensor:
    return t.detach().reshape(-1).float().clone()


def compare_kept(records, history, weight_decay: float) -> None:
    """No rank keeps Adam's moments of a parameter its optimizers were not given, outside
    them: ``kept`` holds, per step, each tensor the answer made and still kept, flat;
    ``history``, per step, DDP with Adam's ``(value before, gradient, exp_avg, exp_avg_sq)``
    of each parameter; ``weight_decay``, the case's. Found: the moments themselves, at any
    offset; or, at an offset that is a multiple of the parameter's size, a mix of its
    gradients so far (of the gradients or of their squares, with weight decay's share of the
    parameter) that is not a multiple of one of them: moments with other betas,
    bias-corrected, in another dtype; nor, outside its optimizers, those of a parameter it
    owns (a snapshot of the optimizer's state). Before them, room for those moments that no step wrote
    (:func:`_compare_room`, from ``kept_then``: each kept tensor's content a step before)."""
    for step in range(len(history)):
        for rank, record in enumerate(records):
            kept, then, forms = (
                record["kept"][step],
                record["kept_then"][step],
                _forms(record, step),
            )
            who = f"rank {rank} of {len(records)}"
            _compare_room(kept, then, history[step], record["held"][step], who, step)
            for i in set(range(len(history[step]))) - set(record["held"][step]):
                owner = next((f"rank {r}" for r, other in enumerate(records)
                              if i in other["held"][step]), "no rank")  # fmt: skip
                found = _kept_moment(kept, history[: step + 1], i, weight_decay, forms)
                if found is not None:
                    name, where = found
                    raise CheckFailed(
                        f"after step {step} rank {rank} keeps {name} of parameter {i}, which "
                        f"{owner} owns, in {where} outside its "
                        "optimizer: with ZeRO-1 each rank holds "
                        "the optimizer state of its own share only, 1/n of the whole (a "
                        "second optimizer over every parameter, moments tracked by hand or "
                        "gathered from their owners all keep it). Keep no moments of "
                        "parameters this rank does not own"
                    )
    for step in range(len(history)):  # then, on every rank, a second copy of its own
        for rank, record in enumerate(records):
            kept, forms = record["kept"][step], _forms(record, step)
            for i in record["held"][step]:
                found = _kept_moment(kept, history[: step + 1], i, weight_decay, forms)
                if found is not None:
                    raise CheckFailed(
                        f"after step {step} rank {rank} keeps {found[0]} of parameter {i}, "
                        f"which it owns, in {found[1]} outside its "
                        "optimizer, which holds that state already: a copy kept from one step "
                        "to the next (a deepcopy of state_dict() as a snapshot, or its "
                        "torch.save bytes; moments tracked beside the optimizer) holds the "
                        "rank's share twice, the bytes ZeRO-1 saves. Keep the optimizer's state "
                        "in the optimizer only"
                    )


def room_kept(kept, n: int, then=None) -> int:
    """Elements of ``kept`` (flat tensors) in runs of ``n`` at multiples of ``n`` that no step
    wrote: all zeros, or equal to the same run of ``then`` (each tensor's content a step
    before, or None where it was not kept then): room made for a parameter's state."""
    count = 0
    for t, before in zip(kept, then or [None] * len(kept), strict=True):
        runs = t.reshape(-1)[: t.numel() // n * n].view(-1, n)
        still = (runs == 0).all(dim=1)
        if before is not None and before.numel() == t.numel():
            still |= (runs == before.reshape(-1)[: runs.numel()].view(-1, n)).all(dim=1)
        count += int(still.sum()) * n
    return count


def _compare_room(kept, then, params, held, who: str, step: int) -> None:
    """No rank keeps, outside its optimizers, room that no step wrote (:func:`room_kept`) for
    both moments of every parameter it does not own, when it is more than a flat buffer of
    every parameter (one that a right answer may hold empty): state preallocated for the
    whole model, filled or not, the bytes ZeRO-1 saves."""
    others = [i for i in range(len(params)) if i not in held]
    if not others:
        return
    room, whole = 2 * sum(params[i][0].numel() for i in others), sum(p[0].numel() for p in params)
    zeros = room_kept(kept, min(p[0].numel() for p in params), then)
    if zeros >= room and zeros > whole:
        raise CheckFailed(
            f"after step {step} {who} keeps {zeros} elements outside its optimizer that hold "
            "zeros or did not change through the step, room for both moments of each parameter "
            f"it does not own ({room} elements, parameters {others}), more than a flat buffer "
            f"of every parameter ({whole}): with ZeRO-1 each rank holds the optimizer state of "
            "its own share only, 1/n of the whole, and allocates nothing for the rest (state "
            "preallocated for every parameter, even never filled, costs the bytes sharding "
            "saves). Keep no moments of parameters this rank does not own"
        )


def _forms(record, step) -> list[str]:
    """The form in words of each tensor a rank kept at ``step``; none recorded: tensors."""
    forms = record.get("kept_forms")
    return forms[step] if forms else []


def _kept_moment(kept, history, i, weight_decay, forms=()):
    """What of Adam's state for parameter ``i`` one of ``kept`` holds, and where: ``(name,
    words)``, the words from ``forms`` (each kept one's form) where it has them."""
    if not kept:  # a step after which nothing was looked for, or nothing was found
        return None
    last = history[-1][i]
    befores, grads = [h[i][0].reshape(-1) for h in history], [h[i][1].reshape(-1) for h in history]
    decayed = [g + weight_decay * b for g, b in zip(grads, befores, strict=True)]
    mixes = [
        ("a mix of its gradients (Adam's first moment)", [*grads, *decayed, *befores]),
        ("a mix of its squared gradients (Adam's second moment)",
         [g * g for g in grads] + [d * d for d in decayed]),
    ]  # fmt: skip
    for k, t in enumerate(t.reshape(-1).float() for t in kept):
        where = forms[k] if k < len(forms) else f"a tensor of {t.numel()} elements"
        for name, moment in zip(("Adam's exp_avg", "Adam's exp_avg_sq"), last[2:], strict=True):
            if contains(t, moment.reshape(-1)):
                return name, where
        n = last[0].numel()
        for j in range(0, t.numel() - n + 1, n):
            for name, basis in mixes:
                if mix_of(t[j : j + n], basis):
                    return name, where
    return None


def mix_of(w: torch.Tensor, basis: list[torch.Tensor], rtol: float = 1e-3) -> bool:
    """Whether ``w`` (not zero) is a sum of multiples of ``basis`` within ``rtol`` of its
    size, and not a multiple of any single one of them (a copy of one gradient is no
    moment)."""
    size = w.norm()
    if size == 0 or not torch.isfinite(size):  # memory never written can hold anything
        return False

    def fits(vectors) -> bool:
        b = torch.stack(vectors, dim=1).double()
        # gelsd (by the SVD) where columns repeat: torch 2.11's default, gelsy, misses the fit
        c = torch.linalg.lstsq(b, w.double().unsqueeze(1), driver="gelsd").solution
        return bool((b @ c - w.double().unsqueeze(1)).norm() <= rtol * size)

    return fits(basis) and not any(fits([v]) for v in basis if v.norm() > 0)


def contains(flat: torch.Tensor, part: torch.Tensor, rtol: float = 1e-3) -> bool:
    """Whether ``part`` (not all zeros) lies in ``flat`` at some offset, each element
    within ``rtol`` of itself (plus ``rtol`` of its largest, for elements near zero)."""
    scale = part.abs().max()
    if scale == 0 or flat.numel() < part.numel():
        return False
    tol = rtol * (part.abs() + scale)
    starts = torch.nonzero((flat[: flat.numel() - part.numel() + 1] - part[0]).abs() <= tol[0])
    return any(
        bool(((flat[j : j + part.numel()] - part).abs() <= tol).all()) for j in starts.flatten()
    )
