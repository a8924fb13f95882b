"""``09.pipeline``'s reference and its verdicts on the loss and the gradients.

:func:`reference` computes, on the CPU, the unsplit model's loss and gradients and those
of the usual mistakes (micro-batches' losses summed, or averaged without their weights;
the last micro-batch's gradients only; ``cross_entropy`` written in for ``loss_fn``).
:func:`check_loss` and :func:`check_grads` compare the answer's with them, to
:data:`TOLERANCE`, and name the mistake they match: a wrong weighting, gradients zeroed
inside the step, or a graph cut between the stages.

What it is not: the checker; :mod:`d2lgpu.checks.ch09_model_parallel` runs the cases.
"""

from __future__ import annotations

import collections
import copy
import functools
import types
import weakref

import torch
from torch import nn

from .._aliases import answer_function
from ._ch09_given_grads import check_not_scaled
from ._kit import Tolerance, alive_after_collecting, close, names_both
from ._util import CheckFailed

__all__ = [
    "TOLERANCE",
    "CREATE_GRAPH",
    "ZEROED",
    "reference",
    "check_loss",
    "check_grads",
    "start_grads",
]
__all__ += ["hooks_on", "kept_by", "made_by_step", "check_nothing_left"]

TOLERANCE = Tolerance(rtol=1e-4, atol=1e-6)


def reference(stage1, stage2, x, y, loss_fn, m):
    """Loss and gradients of the unsplit model, and of the usual mistakes, on the CPU."""
    s1, s2 = copy.deepcopy(stage1).cpu(), copy.deepcopy(stage2).cpu()
    s1._log = s2._log = []
    params = list(s1.parameters()) + list(s2.parameters())

    def grads_of(loss):
        for p in params:
            p.grad = None
        loss.backward()
        return [p.grad.clone() for p in params]

    k = min(m, len(x))
    parts = list(zip(torch.tensor_split(x, k), torch.tensor_split(y, k), strict=True))
    losses = [loss_fn(s2(s1(xb)), yb) for xb, yb in parts]
    unweighted = sum(losses) / len(losses)
    cross = nn.functional.cross_entropy
    return {
        "loss": loss_fn(s2(s1(x)), y).detach(),
        "grads": grads_of(loss_fn(s2(s1(x)), y)),
        "summed": (sum(losses).detach(), grads_of(sum(loss_fn(s2(s1(a)), b) for a, b in parts))),
        "unweighted": (unweighted.detach(), grads_of(unweighted)),
        "k": k,
        "last": grads_of(loss_fn(s2(s1(parts[-1][0])), parts[-1][1]) * len(parts[-1][0]) / len(x)),
        # cross_entropy written in instead of loss_fn (None where it is loss_fn)
        "cross": None if loss_fn is cross else cross(s2(s1(x)), y).detach(),
    }


def check_loss(loss, ref, where) -> None:
    if isinstance(loss, torch.Tensor) and loss.numel() == 1:
        value = loss.detach().reshape(()).to("cpu", ref["loss"].dtype)
    elif isinstance(loss, float | int) and not isinstance(loss, bool):
        value = torch.tensor(float(loss), dtype=ref["loss"].dtype)
    else:
        raise CheckFailed(
            f"pipeline_step returned {type(loss).__name__}: return the loss of the whole batch "
            "(a 0-d tensor or a float)"
        )
    if close(value, ref["loss"], TOLERANCE):
        return
    if close(value, ref["summed"][0], TOLERANCE):
        raise CheckFailed(
            f"for {where}, the loss it returned is the sum of the micro-batches' mean losses, about "
            f"{ref['k']} times too large: weight each micro-batch's loss by its share of the "
            "batch's rows"
        )
    if ref["cross"] is not None and close(value, ref["cross"], TOLERANCE):
        raise CheckFailed(
            f"for {where}, the loss it returned is cross_entropy's, but this case's loss_fn is another "
            "loss: call the loss_fn you were given, not a loss of your choice"
        )
    if close(value, ref["unweighted"][0], TOLERANCE):
        raise CheckFailed(
            f"for {where}, the loss it returned is the plain mean of the micro-batches' losses, which is "
            "wrong when their sizes differ: weight each by its share of the batch's rows"
        )
    raise CheckFailed(
        f"for {where}, the loss it returned is {value.item():.6g}, the unsplit model's {ref['loss'].item():.6g}: "
        "return loss_fn over the whole batch, the micro-batches' losses weighted by their sizes"
    )


# the gradients the caller gave, gone: named by 09.pipeline and 09.one_f_one_b
ZEROED = (
    "the gradients the stages had before the step are gone (the checker gave them some): "
    "the step zeroed or replaced them (zero_grad(), p.grad = None, or p.grad = a gradient "
    "of its own, as torch.autograd.grad's assigned). The caller zeros the gradients, before "
    "the step; inside it, let backward add to them"
)


# a step whose gradients carry a graph: named by 09.pipeline and 09.one_f_one_b
CREATE_GRAPH = (
    "the gradients carry a graph of their own (a grad_fn): backward ran with "
    "create_graph=True, which records the backward pass too, for a second derivative: more "
    "work, and memory held as long as the gradients are. Call backward() without create_graph"
)


def _same_grads(got, want, start=None) -> bool:
    """Whether ``got`` is ``want``, plus the gradients the stages started with if given."""
    start = start if start is not None else [0] * len(want)
    return all(
        g is not None and close(g.to("cpu"), w + s, TOLERANCE)
        for g, w, s in zip(got, want, start, strict=True)
    )


def check_grads(params, ref, start, where) -> None:
    grads = [p.grad for p in params]
    if all(g is None for g in grads):
        raise CheckFailed(
            f"for {where}, no parameter has a gradient, not even the ones the stages had before "
            "the step: something set them to None (zero_grad() does), and no backward followed. "
            "Leave the gradients as they are and call backward on each micro-batch's loss"
        )
    if any(g is not None and g.requires_grad for g in grads):
        raise CheckFailed(f"for {where}, {CREATE_GRAPH}")
    if _same_grads(grads, [torch.zeros_like(s) for s in start], start):
        raise CheckFailed(
            f"for {where}, the gradients are the ones the stages had before the step: call "
            "backward on each micro-batch's loss (or on their weighted sum)"
        )
    if _same_grads(grads, ref["grads"], start):
        return
    k = ref["k"]
    for key, hint in (
        ("summed", f"the loss you returned is right, but the gradients are about {k} times too "
         "large: backward ran on the micro-batches' mean losses, summed without their weights. "
         "Run backward on the weighted losses, the ones whose sum you return"),
        ("unweighted", "the loss you returned is right, but the gradients weight the "
         f"{k} micro-batches equally (backward of their plain mean), wrong when their sizes "
         "differ: run backward on the weighted losses, the ones whose sum you return"),
    ):  # fmt: skip
        if _same_grads(grads, ref[key][1], start):
            raise CheckFailed(f"for {where}, {hint}")
        if _same_grads(grads, ref[key][1]):
            raise CheckFailed(f"for {where}, {names_both(hint, ZEROED)}")
    if _same_grads(grads, ref["last"]):
        raise CheckFailed(
            f"for {where}, the gradients are the last micro-batch's only: let them accumulate "
            "over the micro-batches (no zero_grad() inside the loop, nor before the step: the "
            "caller zeros them)"
        )
    if _same_grads(grads, ref["grads"]):
        raise CheckFailed(f"for {where}, {ZEROED}")
    check_not_scaled(grads, ref["grads"], start, f"for {where},")
    raise CheckFailed(
        f"for {where}, the gradients differ from the unsplit model's: "
        + _which_grads(grads, start, ref)
    )


def _which_grads(grads, start, ref) -> str:
    """Which stage's gradients are wrong, where the whole is neither right nor a known mistake:
    a cut graph (stage 2 right, stage 1 not), or one stage's gradients zeroed by the step."""
    half = len(grads) // 2  # both stages have four parameter tensors here
    states = []
    for got, want, had in ((grads[:half], ref["grads"][:half], start[:half]),
                           (grads[half:], ref["grads"][half:], start[half:])):  # fmt: skip
        right, zeroed = _same_grads(got, want, had), _same_grads(got, want)
        states.append("right" if right else "zeroed" if zeroed else "wrong")
    if states[0] == "wrong" and states[1] != "wrong":
        cut = (
            "stage 2's are right, stage 1's are not (or missing): the gradient did not flow "
            "back across the cut. Move the activations with to(), which autograd "
            "follows; .detach() (or .data) cuts the graph"
        )
        return cut if states[1] == "right" else names_both(cut, ZEROED)
    if "zeroed" in states and "wrong" not in states:
        return f"stage {states.index('zeroed') + 1}'s are right, but {ZEROED}"
    return "run every micro-batch through both stages once, and backward its weighted loss"


def start_grads(params) -> list[torch.Tensor]:
    """Give every parameter a non-zero gradient, as a caller accumulating over steps would."""
    start = [torch.randn(p.shape, dtype=p.dtype) for p in params]
    for p, g in zip(params, start, strict=True):
        p.grad = g.to(p.device, copy=True)  # backward adds to it in place
    return start


_MODULE_HOOKS = ("_forward_hooks", "_forward_pre_hooks", "_backward_hooks", "_backward_pre_hooks")


def hooks_on(stages) -> int:
    """How many hooks the stages' modules and parameters have registered."""
    count = 0
    for stage in stages:
        count += sum(len(getattr(m, a, None) or {}) for m in stage.modules() for a in _MODULE_HOOKS)
        for p in stage.parameters():
            count += len(p._backward_hooks or {})
            count += len(getattr(p, "_post_accumulate_grad_hooks", None) or {})
    return count


def made_by_step(answer, stages, held: list, leave_out=()) -> list[weakref.ref]:
    """Weak references to the tensors the answer keeps (:func:`kept_by`) as its step returns
    that it did not keep before the step (``held``: :func:`kept_by`'s list then), but the
    parameters, their gradients and ``leave_out`` (the loss returned, the checker's own)."""
    params = [p for stage in stages for p in stage.parameters()]
    keep = [*params, *(p.grad for p in params if p.grad is not None), *leave_out]
    ours = {_storage(t) for t in keep}
    before = {id(t) for t in held}
    return [
        weakref.ref(t)
        for t in kept_by(answer, stages)
        if id(t) not in before and _storage(t) not in ours
    ]


def _storage(t: torch.Tensor) -> int | None:
    try:
        return t.untyped_storage().data_ptr()
    except (RuntimeError, NotImplementedError):  # a tensor without storage (a sparse one)
        return None


def kept_by(answer, stages) -> list[torch.Tensor]:
    """The tensors the answer keeps where a step's state outlives it: its
    module's globals, its function's defaults, attributes and closure, its own classes' and
    functions' attributes, the stages' own attributes; followed through containers and
    objects, four levels deep. Only these count: an earlier answer's global hook, say, that
    still holds tensors is not this answer's doing."""
    roots, wrapper = [answer], answer
    while isinstance(wrapper, functools.partial):  # its arguments are kept too
        roots += [*wrapper.args, *wrapper.keywords.values()]
        wrapper = wrapper.func
    fn = answer_function(answer)
    home = getattr(fn, "__module__", None)
    roots += [*getattr(fn, "__globals__", {}).values(), *(getattr(fn, "__defaults__", ()) or ())]
    roots += [*(getattr(fn, "__kwdefaults__", None) or {}).values()]
    roots += [*getattr(fn, "__dict__", {}).values()]
    cells = getattr(fn, "__closure__", None) or ()
    roots += [c.cell_contents for c in cells if c.cell_contents is not None]
    roots += [v for s in stages for m in s.modules() for k, v in vars(m).items() if k[0] != "_"]
    found: list[torch.Tensor] = []
    seen: set[int] = set()
    for _ in range(4):
        level, roots = roots, []
        for v in level:
            if id(v) in seen or isinstance(v, types.ModuleType):
                continue
            seen.add(id(v))
            if isinstance(v, torch.Tensor):
                found.append(v)
            elif isinstance(v, dict):
                roots += v.values()
            elif isinstance(v, list | tuple | set | frozenset | collections.deque):
                roots += v
            elif getattr(v, "__module__", None) == home and hasattr(v, "__dict__"):
                roots += vars(v).values()  # the answer's own classes, functions, objects
            elif hasattr(v, "__dict__") and not callable(v):
                roots += vars(v).values()  # an object of another module's class
    return found


def check_nothing_left(stages, hooks: int, made: list[weakref.ref], at: str) -> None:
    """After a step: no hook added to the stages (``hooks``: their count before it), and
    nothing of ``made`` (:func:`made_by_step`) still alive. ``at`` opens each hint."""
    if (added := hooks_on(stages) - hooks) > 0:
        raise CheckFailed(
            f"{at} your step left {added} hook(s) registered on the stages "
            "(register_forward_hook, a parameter's register_hook, ... without "
            "handle.remove()): each call adds more, every one runs on each later forward or "
            "backward and keeps what it refers to alive. Remove them before the step returns"
        )
    kept = alive_after_collecting(lambda: [t for ref in made if (t := ref()) is not None])
    if kept:
        raise CheckFailed(
            f"{at} after your step returned, {len(kept)} tensor(s) it made were still alive "
            f"(the first of shape {tuple(kept[0].shape)}): something keeps them (a module-level "
            "list, a global, a default argument, an attribute), so memory grows with every "
            "step. A step keeps nothing once it returns but the gradients and the loss"
        )
