"""``10.allreduce_grads``: what the learner's function carries from one call to the next.

In a rank, :func:`made_in_call` notes the tensors a call made and still holds as it returns,
and :func:`kept_numel`, after the job's last step, how much of them is still alive: in the
parent :func:`check_kept` names a function that keeps something from every call (memory
that grows with each step). From step ``LATE`` (:mod:`._ranks`) the model uses a layer that
had no gradient before: :func:`late_hint` adds to the hint for its gradient never sent, and
:func:`late_error_hint` is the hint for a call that first raised there (a list of
parameters, or a buffer, made at the first call and kept).
"""

from __future__ import annotations

import gc
import weakref

from ._kit import made_since
from ._util import CheckFailed

__all__ = [
    "check_kept",
    "kept_numel",
    "late_error_hint",
    "late_hint",
    "made_in_call",
    "needs_grad",
    "needs_grad_hint",
]


def made_in_call(alive) -> list[weakref.ref]:
    """In a rank, as the learner's call returns: weak references to the floating-point
    tensors it made (none of ``alive``, :func:`._kit.tensors_alive` before it) and kept."""
    return [weakref.ref(t) for t in made_since(alive) if t.is_floating_point()]


def kept_numel(made: list[weakref.ref], model) -> int:
    """In a rank, after the job's last step: the elements of the storages that the tensors of
    ``made`` (one call's, :func:`made_in_call`) still alive hold, each storage once, less
    those of the model's parameters and gradients (a gradient that is a view of a flat buffer
    keeps it alive)."""
    gc.collect()
    ours = {t.untyped_storage().data_ptr() for p in model.parameters() for t in (p, p.grad)
            if t is not None}  # fmt: skip
    sizes = {}
    for t in (r() for r in made):
        if t is not None and (storage := t.untyped_storage()).data_ptr() not in ours:
            sizes[storage.data_ptr()] = storage.nbytes() // t.element_size()
    return sum(sizes.values())


def check_kept(records, steps_of_first=None) -> None:
    """No rank keeps, from every call, tensors that call made, nor more after each call of
    the first model's (its first ``steps_of_first`` steps) than after the one before: memory
    that grows with each step. One cache made at a first call (a buffer reused after, or
    replaced) is not this."""
    for rank, record in enumerate(records):
        steps = record["steps"]
        held = [s.get("held", 0) for s in steps[:steps_of_first]]
        if len(held) > 2 and all(0 < a < b for a, b in zip(held, held[1:], strict=False)):
            raise CheckFailed(
                f"what your function keeps grows at every call: after each of the first "
                f"{len(held)} steps rank {rank} held {', '.join(map(str, held))} elements in "
                "tensors its calls made (a log that is one element longer per call, a tensor "
                "grown by torch.cat, a list of every call's copies). Over a training run that "
                "grows without bound. Keep nothing from a call that grows (or one buffer, made "
                "once and reused)"
            )
        smallest = min(g.numel() for g in steps[0]["local"].values() if g is not None)
        kept = [s.get("kept", 0) for s in steps]
        if len(kept) > 1 and min(kept) >= smallest:
            raise CheckFailed(
                f"your function keeps tensors it makes, from every call: after the last "
                f"step, rank {rank} still holds {', '.join(map(str, kept))} elements made by "
                f"the calls of its {len(kept)} steps, one after another. A list that grows "
                "at each call (a history of flat buffers, of gradients, a log) holds a copy "
                "of the gradients per step, and memory grows without bound over a training "
                "run. Keep nothing from a call (or one buffer, made once and reused)"
            )


def late_error_hint(words, step) -> str:
    """The hint where the call first raised at ``step``, the first at which the layer
    ``unused`` has gradients; ``words``: the error and the learner's line."""
    return (
        f"your function raised {words} at step {step}, the first step at which unused.weight "
        "and unused.bias have a gradient (their layer was not used at the steps before, and "
        "those steps passed). Which parameters have a gradient can change from one call to "
        "the next, and so can their sizes: read p.grad in every call. A flat buffer sized, or "
        "a list of parameters made, at the first call and kept no longer fits"
    )


def late_hint(name, step, averages) -> str:
    """What the hint for ``name``'s gradient never sent at ``step`` adds: where it had none at
    the steps before (its layer unused there: ``averages`` lacks it), or where it was averaged
    then (something kept between calls)."""
    if not step:
        return ""
    if name in averages:  # sent and averaged at the steps before: this call skipped it
        return (
            f"At the steps before, {name}'s gradient was averaged: does your function keep "
            "something between calls (the gradient tensors it has seen, a list of parameters)? "
            "zero_grad(set_to_none=False) leaves the same tensors, which backward fills again, "
            "and each call must average them anew. "
        )
    return (
        f"{name} has a gradient from step {step} on, and none at the steps before (its layer "
        "was not used there): which parameters have a gradient can change from one call to "
        "the next. Read p.grad in every call; a list of parameters made at the first call "
        "(cached, or kept in a global) misses it. "
    )


def needs_grad(model) -> dict[str, bool]:
    """Each parameter's ``requires_grad``, by name."""
    return {n: p.requires_grad for n, p in model.named_parameters()}


def needs_grad_hint(model, before: dict[str, bool], step: int) -> str | None:
    """The hint where the call changed a parameter's ``requires_grad`` (``before``:
    :func:`needs_grad` as it began), else None."""
    changed = [n for n, needs in needs_grad(model).items() if needs != before.get(n, needs)]
    if not changed:
        return None
    return (
        f"your function changed requires_grad of {', '.join(changed)} (step {step}): that "
        "changes the model, not its gradients, and lasts after the call. A parameter without a "
        "gradient at this step (its layer unused) may get one at a later step, and frozen it "
        "never trains again. Leave the parameters as they are: skip a gradient that is None"
    )
