"""``09.tensor_parallel``'s problem and what each rank runs: the blocks to split (an MLP
``Linear(WIDTH, HIDDEN)``, an activation, ``Linear(HIDDEN, WIDTH)``, GELU in the first and
LeakyReLU with a slope of 0.2 in the second), their input, each rank's share of the hidden
units, and the record a rank sends back (the storage its parameters hold and the buffers
it keeps, the output, the all-reduces of forward and backward, the input's gradient, the
output after one SGD step).

What it is not: the rules and hints, :mod:`.ch09_tensor_parallel`.
"""

from __future__ import annotations

import torch
from torch import nn
from torch.distributed.tensor import DTensor

from ..ranks import count_all_reduces
from ._ch09_tp_given import (
    as_given,
    changed_hint,
    holds_other_share,
    kept_alive,
    twice_right,
    whole_storages,
)
from ._kit_collective_reads import unwaited_hint, written_hint
from ._kit_collectives import CollectiveWatch, describe
from ._kit_process import defaults_kept
from ._kit_seeds import reseeds_named
from ._ranks import learner_reply
from ._util import CheckFailed, refused_call_named

__all__ = ["ACTIVATIONS", "BLOCKS", "HIDDEN", "LR", "WIDTH", "WORLD", "data", "hidden_share",
           "make_blocks", "rank_work", "shard_bytes"]  # fmt: skip

WORLD, WIDTH, HIDDEN, ROWS, LR = 2, 6, 10, 5, 0.5


def _leaky_relu() -> nn.Module:
    """LeakyReLU with a slope not its default: one made anew, type(mlp[1])(), is seen."""
    return nn.LeakyReLU(negative_slope=0.2)


# each block's activation: not always the same, so that one written in is seen
ACTIVATIONS = (nn.GELU, _leaky_relu)
BLOCKS = len(ACTIVATIONS)


def make_blocks(seed: int = 0, activations=ACTIVATIONS) -> list[nn.Sequential]:
    """One MLP ``Linear(WIDTH, HIDDEN)``, an activation, ``Linear(HIDDEN, WIDTH)`` per
    activation: ``BLOCKS`` of them, GELU in the first, LeakyReLU(0.2) in the second."""
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        return [
            nn.Sequential(nn.Linear(WIDTH, HIDDEN), act(), nn.Linear(HIDDEN, WIDTH))
            for act in activations
        ]


def data():
    gen = torch.Generator().manual_seed(7)
    return torch.randn(ROWS, WIDTH, generator=gen), torch.randn(ROWS, WIDTH, generator=gen)


def hidden_share(rank: int, world: int = WORLD) -> int:
    """How many hidden units rank ``rank`` of ``world`` keeps (``torch.chunk``'s share)."""
    return len(torch.chunk(torch.arange(HIDDEN), world)[rank])


def shard_bytes(world: int = WORLD, rank: int = 0) -> int:
    """The bytes one rank's shards take: its rows of fc1 and fc1's bias, its columns of
    fc2, and fc2's bias (whole), per block."""
    units = hidden_share(rank, world)
    per_block = units * WIDTH + units + WIDTH * units + WIDTH
    return BLOCKS * per_block * 4


def rank_work(ParallelMLP, logs=None):
    """What each rank runs: the answer on its share, ``("ok", its record)``, or the error
    it raised as :func:`._ranks.learner_reply` gives it. Its collectives are written to
    ``logs/rank<r>`` as they start, when ``logs`` is given."""

    def work(rank, world):
        path = None if logs is None else f"{logs}/rank{rank}"
        with CollectiveWatch(path=path, answer=ParallelMLP) as watch:
            try:
                with refused_call_named(ParallelMLP), defaults_kept("in a rank, your code"):
                    record = _run(ParallelMLP, rank, world, watch)
                if watch.refused:  # a call on a thread of the answer's, however it ended
                    raise CheckFailed(watch.refused[0])
                return ("ok", record)
            except BaseException as error:  # noqa: BLE001 (the learner's, with its line)
                return learner_reply(error)

    return work


_MODULE_OWN = frozenset(vars(nn.Module()))


def _float_buffers(module: nn.Module) -> list[str]:
    """The names of the floating-point buffers ``module`` keeps (a shard registered so)."""
    return [n for n, b in module.named_buffers() if b.is_floating_point()]


def _plain_tensors(parts) -> list[tuple[str, bool]]:
    """The tensors the parts keep as attributes that require grad but are no nn.Parameter,
    and the parameters they keep in a plain list, tuple or dict, which registers nothing; a
    each name with whether the tensor was computed from a parameter (it has a grad_fn)."""
    found = []
    for part in parts:
        for module in part.modules():
            for name, value in vars(module).items():
                if name in _MODULE_OWN:  # _parameters, _buffers, _modules...: nn.Module's
                    continue
                held = list(value.values()) if isinstance(value, dict) else value
                inside = isinstance(held, list | tuple) and not isinstance(value, nn.Module)
                for t in held if inside else [value]:
                    registered = isinstance(t, nn.Parameter) and not inside
                    if isinstance(t, torch.Tensor) and t.requires_grad and not registered:
                        said = f"{name} (a plain {type(value).__name__})" if inside else name
                        found.append((said, t.grad_fn is not None))
    return found


def _functions_returning_none(out) -> list[str]:
    """Hooks on the autograd.Function nodes of ``out``'s graph; the list they fill, in
    backward, with the name of each Function whose backward returned no gradient at all."""
    found, seen, stack = [], set(), [out.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        stack.extend(n for n, _ in node.next_functions)
        if hasattr(node, "_forward_cls") and any(n is not None for n, _ in node.next_functions):

            def hook(grad_inputs, grad_outputs, name=node._forward_cls.__name__):
                if all(g is None for g in grad_inputs):
                    found.append(name)

            node.register_hook(hook)
    return found


def _run(ParallelMLP, rank, world, watch):
    blocks = make_blocks()
    given = [as_given(b) for b in blocks]
    with reseeds_named("your ParallelMLP"):
        parts = [ParallelMLP(b, rank, world) for b in blocks]
    for part in parts:
        if not isinstance(part, nn.Module):
            raise TypeError(f"ParallelMLP(...) must make an nn.Module, got {type(part).__name__}")
    # named first, as what follows reads the blocks (a generator: no name left holding one)
    changes = (changed_hint(b, g, rank, world) for b, g in zip(blocks, given, strict=True))
    if changed := next(filter(None, changes), None):
        return {"held": 0, "broken": changed}
    if any(isinstance(p, DTensor) for part in parts for p in part.parameters()):
        return {"held": 0, "broken": _DTENSOR}
    plain = _plain_tensors(parts)
    if computed := sorted({name for name, made in plain if made}):
        return {"held": 0, "broken": _COMPUTED.format(names=", ".join(computed))}
    if plain:
        names = ", ".join(sorted({name for name, _ in plain}))
        return {"held": 0, "broken": _PLAIN.format(names=names)}
    named = [(f"{n} of block {i}", p) for i, m in enumerate(parts) for n, p in m.named_parameters()]
    params = [p for _, p in named]
    storages = {(p.untyped_storage().data_ptr(), p.untyped_storage().nbytes()) for p in params}
    held = sum(n for _, n in storages)
    dtypes = sorted({str(p.dtype).removeprefix("torch.") for p in params} - {"float32"})
    by_part = [{p.untyped_storage().data_ptr() for p in part.parameters()} for part in parts]
    shared_parts = sum(map(len, by_part)) > len(set().union(*by_part))
    views = sum(p.untyped_storage().nbytes() > p.nbytes for p in params)
    whole = {id(p) for b in blocks for p in b.parameters()}
    shares_whole = any(id(p) in whole for p in params)
    refs = whole_storages(blocks)
    del blocks  # the checker's own reference: what stays alive now, the answer keeps
    kept = kept_alive(refs, storages)
    x, weight = data()
    x = x.clone().requires_grad_()
    mark, watch.phase = watch.mark(), "(forward)"
    saved: list[tuple[int, ...]] = []  # the shapes forward keeps for backward

    def pack(t):
        saved.append(tuple(t.shape))
        return t

    hooks = torch.autograd.graph.saved_tensors_hooks(pack, _same)
    with count_all_reduces() as forward, hooks, reseeds_named("your ParallelMLP"):
        inputs, out = [], x
        for part in parts:
            inputs.append(out)
            out = part(out)
            if not isinstance(out, torch.Tensor):  # said now, not by the next block's error
                return {"held": held, "broken": _NOT_A_TENSOR.format(type(out).__name__)}
    broken = _broken(watch, mark, "forward returned")
    if broken:
        return {"held": held, "broken": broken}
    hooked = [i for i, t in enumerate(inputs) if t._backward_hooks]
    if hooked:
        return {"held": held, "broken": _HOOKED.format(block=hooked[0])}
    if not out.requires_grad:
        return {"held": held, "out": out.detach(), "no_grad": True, "forward": forward.calls}
    returned_none = _functions_returning_none(out)
    first = out.detach().clone()  # what the first forward returned, as it returned it
    mark, watch.phase = watch.mark(), "(backward)"
    with count_all_reduces() as backward, reseeds_named("your ParallelMLP"):
        (out * weight).sum().backward()
    broken = _broken(watch, mark, "backward returned")
    if broken or returned_none:
        return {"held": held, "broken": broken or _NONE.format(name=returned_none[0])}
    x_grad = x.grad if x.grad is None else x.grad.clone()  # as this backward left it
    twice = twice_right(parts[0], make_blocks()[0], x, weight)  # a layer used twice
    watch.phase = "(forward after the SGD step)"
    with torch.no_grad():
        for p in params:
            if p.grad is not None:
                p -= LR * p.grad
        after = x.detach()
        for part in parts:
            after = part(after)
    if not torch.equal(out.detach(), first):  # the next forward wrote over it
        return {"held": held, "broken": _OVERWRITTEN}
    return {
        "held": held,
        "dtypes": dtypes,
        "shared_parts": shared_parts,
        "other_rank": holds_other_share(ParallelMLP, make_blocks()[0], rank, world),
        "views": views,
        "buffers": [f"{n} of block {i}" for i, m in enumerate(parts) for n in _float_buffers(m)],
        "kept": kept,
        "shares_whole": shares_whole,
        "without_grad": [(n, p.requires_grad) for n, p in named if p.grad is None],
        "out": out.detach(),
        "x_grad": x_grad,
        "twice": twice,
        "after": after.detach(),
        "forward": forward.calls,
        "backward": backward.calls,
        "no_grad": False,
        "saved": saved,
        "legacy_hook": any(m._is_full_backward_hook is False for p in parts for m in p.modules()),
    }


def _same(t):
    return t


def _broken(watch, mark, where) -> str | None:
    """The hint for an async all-reduce not waited on by ``where``, or for a collective
    other than all_reduce, since ``mark``; None when there is none."""
    if written := watch.written(mark):
        return written_hint(written, where)
    if unwaited := watch.unwaited(mark):
        return unwaited_hint(unwaited, where)
    other = next((c for c in watch.calls[mark:] if c.kind != "all_reduce"), None)
    if other is not None:
        return (
            f"besides all-reduces, {describe(other)} ran before {where}: an extra "
            "collective. Tensor parallelism here needs one all-reduce per block in forward "
            "and one in backward, nothing more"
        )
    return None


_PLAIN = (
    "your ParallelMLP keeps {names} as plain tensors with requires_grad, not nn.Parameter, or "
    "in a plain list or dict: module.parameters() does not list them, so an optimizer never "
    "updates them (and the shards are not the module's). Wrap each shard in "
    "nn.Parameter(...), an attribute of its own or in an nn.ParameterList"
)
_COMPUTED = (
    "your ParallelMLP keeps {names}, computed once from a parameter when the module is built "
    "(it has a grad_fn): an optimizer step changes the parameter, not this copy, so forward "
    "goes on with the old values. Keep only nn.Parameter shards, and compute what you need "
    "from them in forward (w.t() is a view, no copy)"
)
_NONE = (
    "the backward of your autograd.Function {name} returned None: autograd then passes no "
    "gradient to its input, so the layers before it get none. backward must return the "
    "gradient, e.g. all-reduce it and `return grad`"
)
_DTENSOR = (
    "your ParallelMLP's parameters are DTensors (parallelize_module, ColwiseParallel and "
    "RowwiseParallel, or distribute_tensor): that is PyTorch doing the split, whose "
    "collectives do not go through dist.all_reduce. This exercise builds it by hand: "
    "nn.Parameter shards cloned from the weights, and dist.all_reduce in two "
    "torch.autograd.Functions"
)
_HOOKED = (
    "forward registered a hook on its input (the tensor block {block} was given, which "
    "belongs to the caller): each call adds one more, so a tensor that goes through forward "
    "twice has its gradient all-reduced twice. Make the backward all-reduce a "
    "torch.autograd.Function (or hook a view made in forward, x = x.view_as(x))"
)
_OVERWRITTEN = (
    "your ParallelMLP's forward returned a tensor that its next call wrote over: the output "
    "is kept between calls (a buffer held by the module, filled in place with out= or "
    "copy_), so an output the caller still holds changes at the next forward. Return a new "
    "tensor from every call"
)
_NOT_A_TENSOR = (
    "your ParallelMLP's forward returned {}, not a tensor: it must return the block's "
    "whole output (does it end with `return`?)"
)
