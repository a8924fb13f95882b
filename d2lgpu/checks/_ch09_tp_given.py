"""``09.tensor_parallel``'s rules on the mlp a ``ParallelMLP`` is given: it is the caller's,
whole, and stays as it was (its modules, and its parameters' identity, shapes and values),
since the caller builds every rank's share from it and compares with its output; and once
the rank lets go of it, none of its storage stays alive (the weak references to follow);
and :func:`twice_right`, whether a share applied twice in one forward gives its input the
gradient the mlp does (each call sums its own input's gradient, not the module's last); and
:func:`holds_other_share`, whether a share built from it for another rank holds that rank's
shard (or this rank's, or a split of its own).

What it is not: what each rank runs (:mod:`._ch09_tp_problem`), nor the other hints
(:mod:`._ch09_tp_hints`).
"""

from __future__ import annotations

import weakref

import torch
from torch import nn
from torch.multiprocessing.reductions import StorageWeakRef

from ._kit import alive_after_collecting
from ._util import written_as

__all__ = [
    "as_given",
    "changed_hint",
    "holds_other_share",
    "kept_alive",
    "twice_right",
    "whole_storages",
]


def as_given(mlp: nn.Module):
    """What ``changed_hint`` compares: ``mlp``'s modules, and its parameters with a copy of
    their values."""
    modules = {name: (weakref.ref(m), type(m).__name__) for name, m in mlp.named_modules()}
    with torch.no_grad():  # weak references: a record that kept mlp alive would be counted
        params = {
            name: (weakref.ref(p), p.shape, p.detach().clone())
            for name, p in mlp.named_parameters()
        }
    return modules, params


def _label(name: str) -> str:
    """``0.weight`` as ``mlp[0].weight``."""
    return written_as("mlp", name)


def _changes(mlp: nn.Module, given) -> list[str]:
    modules, params = given
    now_modules = dict(mlp.named_modules())
    now = dict(mlp.named_parameters())
    found = [
        f"{_label(name)} ({kind}) was replaced or removed"
        for name, (m, kind) in modules.items()
        if name and now_modules.get(name) is not m()
    ]
    for name, (p, shape, values) in params.items():
        q = now.get(name)
        if q is None:
            found.append(f"{_label(name)} was removed")
        elif q.shape != shape:
            found.append(f"{_label(name)} is now of shape {tuple(q.shape)}, was {tuple(shape)}")
        elif q is not p():
            found.append(f"{_label(name)} is a new Parameter")
        elif not torch.equal(q.detach(), values):
            found.append(f"{_label(name)}'s values were changed in place")
    found += [f"{_label(name)} was added" for name in now if name not in params]
    return found


def changed_hint(mlp: nn.Module, given, rank: int, world: int) -> str | None:
    """The hint when ``ParallelMLP(mlp, rank, world)`` left ``mlp`` other than ``given``
    (:func:`as_given`), or None."""
    found = _changes(mlp, given)
    if not found:
        return None
    more = f" (and {len(found) - 3} more)" if len(found) > 3 else ""
    return (
        f"ParallelMLP(mlp, {rank}, {world}) changed the caller's mlp, the unsplit MLP it was "
        f"given: {'; '.join(found[:3])}{more}. The caller builds every rank's ParallelMLP "
        "from it (another rank's too, to check or save it) and compares with its output, so "
        "it must stay as it was. Keep new nn.Parameter shards, cloned from its weights, on self "
        "(nn.Parameter(fc1.weight.detach()[rows].clone())), not assigned into mlp's own "
        "modules (copy.deepcopy(mlp) first, if you want Linear modules to cut down)"
    )


_NAMES = {"0.weight": "fc1's weight", "0.bias": "fc1's bias", "2.weight": "fc2's weight"}


def whole_storages(blocks):
    """Each unsplit parameter's name, a weak reference to its storage, and where it lies."""
    return [
        (_NAMES.get(n, "fc2's bias"), StorageWeakRef(p.untyped_storage()), p.data_ptr())
        for b in blocks
        for n, p in b.named_parameters()
    ]


def kept_alive(refs, storages) -> dict[str, list[str]]:
    """The unsplit parameters whose storage is still alive once the checker let go of the
    blocks: ``shared`` by one of the answer's parameters, or kept ``elsewhere``."""
    alive_after_collecting(lambda: [name for name, ref, _ in refs if not ref.expired()])
    ours = {ptr for ptr, _ in storages}
    kept: dict[str, list[str]] = {"shared": [], "elsewhere": []}
    for name, ref, ptr in refs:
        where = "shared" if ptr in ours else "elsewhere"
        if not ref.expired() and name not in kept[where]:
            kept[where].append(name)
    return kept


def twice_right(part: nn.Module, mlp: nn.Module, x: torch.Tensor, weight) -> bool:
    """Whether ``part(part(x))`` gives ``x`` the gradient ``mlp(mlp(x))`` does (not where
    it raises: what else is wrong is named first); the part's ``.grad`` put back after, as
    the step that follows reads them."""
    grads = [p.grad for p in part.parameters()]
    for p in part.parameters():  # else backward adds to them in place
        p.grad = None
    mine, ref = (x.detach().clone().requires_grad_() for _ in range(2))
    try:
        (part(part(mine)) * weight).sum().backward()
    except Exception:  # noqa: BLE001 (the learner's; the rules name it, or the next call does)
        return False
    finally:
        for p, g in zip(part.parameters(), grads, strict=True):
            p.grad = g
    (mlp(mlp(ref)) * weight).sum().backward()
    got, want = mine.grad, ref.grad
    return got is not None and want is not None and torch.allclose(got, want, 1e-4, 1e-5)


def holds_other_share(ParallelMLP, block, rank, world) -> bool | str:
    """Whether ``ParallelMLP(block, other, world)`` built on this rank (block: a given mlp) holds rank ``other``'s
    shard's values (in any layout, fc2's bias or not): True; else ``"own"`` where it holds
    this rank's (one that silently asks dist for its rank builds its own), ``"split"`` where
    neither (a split of its own). One that refuses (an assert that the ranks agree) is not
    judged."""
    other = (rank + 1) % world
    fc1, fc2 = block[0], block[2]
    assert isinstance(fc1, nn.Linear) and isinstance(fc2, nn.Linear)
    with torch.no_grad():  # the shards taken before: ParallelMLP may change the block
        units = torch.chunk(torch.arange(fc1.out_features), world)
        shards = {
            r: [fc1.weight[units[r]], fc1.bias[units[r]], fc2.weight[:, units[r]], fc2.bias.clone()]
            for r in (other, rank)
        }
        try:
            part = ParallelMLP(block, other, world)
        except Exception:  # noqa: BLE001 (a refusal, loud: not a wrong shard)
            return True
        got = [p.detach().reshape(-1) for p in part.parameters()]
        held = torch.cat(got).float().sort().values if got else torch.zeros(0)
        for r, found in ((other, True), (rank, "own")):
            for kept in (shards[r][:3], shards[r]):
                wanted = torch.cat([w.reshape(-1) for w in kept]).sort().values
                if held.shape == wanted.shape and torch.equal(held, wanted):
                    return found
    return "split"
