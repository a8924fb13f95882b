"""10.allreduce_grads: what the learner's function carries from one call to the next
(:mod:`d2lgpu.checks._ch10_between_calls`), read in this process."""

from __future__ import annotations

import pytest
import torch
from torch import nn

from d2lgpu.checks._ch10_between_calls import (
    check_kept,
    kept_numel,
    late_error_hint,
    late_hint,
    made_in_call,
    needs_grad,
    needs_grad_hint,
)
from d2lgpu.checks._kit import tensors_alive
from d2lgpu.checks._util import CheckFailed

KEPT = []  # what the calls below keep, as a learner's global would


def _records(kept, smallest=3):
    """A rank's record: ``kept[i]``, the elements that step i's call still holds at the end."""
    local = {"unused": None, "w": torch.zeros(smallest), "v": torch.zeros(smallest + 5)}
    return [{"steps": [{"local": local, "kept": k} for k in kept]}]


def test_a_function_that_keeps_something_from_every_call_is_named_with_what_each_kept():
    with pytest.raises(CheckFailed) as raised:
        check_kept(_records([163, 163, 175, 166]))
    assert str(raised.value) == (
        "your function keeps tensors it makes, from every call: after the last step, rank 0 "
        "still holds 163, 163, 175, 166 elements made by the calls of its 4 steps, one after "
        "another. A list that grows at each call (a history of flat buffers, of gradients, a "
        "log) holds a copy of the gradients per step, and memory grows without bound over a "
        "training run. Keep nothing from a call (or one buffer, made once and reused)"
    )
    with pytest.raises(CheckFailed, match="rank 1 still holds 3, 3"):  # the smallest gradient's
        check_kept(_records([0, 0]) + _records([3, 3]))


@pytest.mark.parametrize(
    "kept",
    [
        [163, 0, 175, 166],  # a cache made again where the gradients change: not every call
        [0, 0, 0, 163],  # the last call's buffer, replaced at each call
        [2, 2, 2, 2],  # less than the smallest gradient (3) from each: a number, not a copy
        [163],  # one call: nothing to grow
    ],
)
def test_what_not_every_call_keeps_or_less_than_a_gradient_is_not_named(kept):
    check_kept(_records(kept))


def test_the_tensors_a_call_made_and_kept_are_counted_less_the_models_own():
    model = nn.Linear(4, 2)
    model(torch.ones(1, 4)).sum().backward()
    KEPT.clear()
    alive = tensors_alive()
    flat = torch.zeros(10)
    model.weight.grad = flat[:8].view(2, 4)  # a view of a flat buffer: the model's own
    KEPT.extend([torch.ones(6), torch.ones(3, dtype=torch.int64), torch.zeros(2, 2)])
    made = made_in_call(alive)
    assert sorted(r().numel() for r in made) == [4, 6, 8, 10]  # floating point only, all made
    del flat
    kept = kept_numel(made, model)
    assert kept == 10 and type(kept) is int  # flat shares the gradient's storage: not counted
    KEPT.pop()
    assert kept_numel(made, model) == 6
    KEPT.append(model.weight.grad)  # the view, kept by the learner too
    model.weight.grad = None
    assert kept_numel(made, model) == 16  # the flat buffer (its view counted with it) and 6
    KEPT.pop()
    assert kept_numel(made, model) == 6  # the flat buffer went with its last view
    KEPT.clear()


def test_a_gradient_new_at_a_later_step_is_named_as_one_a_list_made_at_the_first_call_misses():
    assert late_hint("unused.weight", 2, {"w": torch.zeros(1)}) == (
        "unused.weight has a gradient from step 2 on, and none at the steps before (its layer "
        "was not used there): which parameters have a gradient can change from one call to "
        "the next. Read p.grad in every call; a list of parameters made at the first call "
        "(cached, or kept in a global) misses it. "
    )
    assert late_hint("w", 2, {"w": torch.zeros(1)}) == (  # averaged at the steps before
        "At the steps before, w's gradient was averaged: does your function keep something "
        "between calls (the gradient tensors it has seen, a list of parameters)? "
        "zero_grad(set_to_none=False) leaves the same tensors, which backward fills again, and "
        "each call must average them anew. "
    )
    assert late_hint("unused.weight", 0, {}) == ""  # the first step: no step before
    assert late_error_hint("ValueError: no (line 3)", 2) == (
        "your function raised ValueError: no (line 3) at step 2, the first step at which "
        "unused.weight and unused.bias have a gradient (their layer was not used at the steps "
        "before, and those steps passed). Which parameters have a gradient can change from one "
        "call to the next, and so can their sizes: read p.grad in every call. A flat buffer "
        "sized, or a list of parameters made, at the first call and kept no longer fits"
    )


def _held(held, then=()):
    """A rank's record: after each call, ``held`` elements kept by the calls so far; ``then``,
    the steps of a second model after the first one's."""
    local = {"w": torch.zeros(3)}
    return [{"steps": [{"local": local, "held": h} for h in [*held, *then]]}]


def test_what_the_calls_keep_growing_at_every_call_of_the_first_model_is_named():
    with pytest.raises(CheckFailed) as raised:
        check_kept(_held([1, 2, 3], then=[1]), 3)  # a log one element longer per call
    assert str(raised.value) == (
        "what your function keeps grows at every call: after each of the first 3 steps rank 0 "
        "held 1, 2, 3 elements in tensors its calls made (a log that is one element longer per "
        "call, a tensor grown by torch.cat, a list of every call's copies). Over a training "
        "run that grows without bound. Keep nothing from a call that grows (or one buffer, "
        "made once and reused)"
    )
    for held in ([163, 163, 175], [0, 1, 2], [5, 4, 6], [163, 175]):  # not at every call
        check_kept(_held(held, then=[1000]), len(held))
    check_kept(_held([1, 2], then=[3]), 2)  # the second model's steps are its own


def test_a_parameter_whose_requires_grad_the_call_changed_is_named():
    model = nn.Sequential(nn.Linear(2, 2), nn.Linear(2, 1))
    before = needs_grad(model)
    assert before == dict.fromkeys(["0.weight", "0.bias", "1.weight", "1.bias"], True)
    assert needs_grad_hint(model, before, 1) is None
    model[1].requires_grad_(False)
    assert needs_grad_hint(model, before, 1) == (
        "your function changed requires_grad of 1.weight, 1.bias (step 1): that changes the "
        "model, not its gradients, and lasts after the call. A parameter without a gradient at "
        "this step (its layer unused) may get one at a later step, and frozen it never trains "
        "again. Leave the parameters as they are: skip a gradient that is None"
    )
    assert needs_grad_hint(model, needs_grad(model), 2) is None
    before = needs_grad(model)
    model.register_parameter("extra", nn.Parameter(torch.zeros(1)))  # new: none to compare
    assert needs_grad_hint(model, before, 3) is None
