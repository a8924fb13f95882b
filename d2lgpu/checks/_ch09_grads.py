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

import copy

import torch
from torch import nn

from ._kit import Tolerance, close, names_both
from ._util import CheckFailed

__all__ = ["TOLERANCE", "CREATE_GRAPH", "reference", "check_loss", "check_grads"]

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
        value = loss.detach().reshape(()).to("cpu", torch.float32)
    elif isinstance(loss, float | int) and not isinstance(loss, bool):
        value = torch.tensor(float(loss))
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


_ZEROED = (
    "the gradients the stages had before the step are gone (the checker gave them some): "
    "the step zeroed them (zero_grad(), or p.grad = None). The caller zeros the gradients, "
    "before the step; inside it, let backward add to them"
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
            raise CheckFailed(f"for {where}, {names_both(hint, _ZEROED)}")
    if _same_grads(grads, ref["last"]):
        raise CheckFailed(
            f"for {where}, the gradients are the last micro-batch's only: let them accumulate "
            "over the micro-batches (no zero_grad() inside the loop, nor before the step: the "
            "caller zeros them)"
        )
    if _same_grads(grads, ref["grads"]):
        raise CheckFailed(f"for {where}, {_ZEROED}")
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
        return cut if states[1] == "right" else names_both(cut, _ZEROED)
    if "zeroed" in states and "wrong" not in states:
        return f"stage {states.index('zeroed') + 1}'s are right, but {_ZEROED}"
    return "run every micro-batch through both stages once, and backward its weighted loss"
