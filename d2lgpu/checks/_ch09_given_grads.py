"""The gradients the caller gave the stages of chapter 9's pipeline steps (``09.pipeline``,
``09.one_f_one_b``): still in ``.grad`` when a stage's first forward runs, and added to by
the step, not scaled.

Both checkers give every stage non-zero gradients before the step, as a caller accumulating
over batches leaves them, and both prompts say "do not zero the gradients".

* :func:`expect_given` hands each stage its share of those gradients; a stage then calls
  :func:`grads_state` at its first forward, and :func:`check_given` names a step that had
  zeroed them (or set them to None) by then: the sums can still come out right when it adds
  a copy back at the end, which held all the gradients twice while the step ran.
* :func:`check_not_scaled` names gradients that are ``c`` times the ones given, plus the
  step's own: the step scaled the whole ``.grad`` after backward (``p.grad /= len(x)``).

What it is not: a checker; :mod:`.ch09_model_parallel` and :mod:`.ch09_one_f_one_b` run
the cases, and call these rules after their own on the values.
"""

from __future__ import annotations

import torch

from ._kit import Tolerance, close
from ._util import CheckFailed

__all__ = ["expect_given", "grads_state", "check_given", "start_scale", "check_not_scaled"]

TOLERANCE = Tolerance(rtol=1e-4, atol=1e-6)  # both checkers' gradient tolerance


def expect_given(stages, start: list[torch.Tensor]) -> None:
    """Hand each stage (its ``given``) the gradients of ``start`` that are its parameters':
    ``start`` lists them stage by stage, in ``parameters()``'s order."""
    at = 0
    for stage in stages:
        n = len(list(stage.parameters()))
        stage.given, at = start[at : at + n], at + n


def grads_state(params, given: list[torch.Tensor]) -> str:
    """``""`` while every parameter's ``.grad`` holds ``given``'s values; else what it holds:
    ``"None"``, ``"zeros"`` or ``"other values"``."""
    # the checker's own look, unseen by the pretend GPU's watch (no host read of the step's)
    with torch._C.DisableTorchFunction():
        grads = [p.grad for p in params]
        if any(g is None for g in grads):
            return "None"
        kept = [(g, w) for g, w in zip(grads, given, strict=True) if g.device.type != "meta"]
        got = [g.detach().to("cpu") for g, _ in kept]  # a meta tensor holds no values to read
        if all(torch.equal(g, w) for g, (_, w) in zip(got, kept, strict=True)):
            return ""
        return "zeros" if not any(bool(g.any()) for g in got) else "other values"


_HELD = {
    "None": "None (zero_grad() sets them so)",
    "zeros": "zeros (zero_grad(set_to_none=False), or p.grad.zero_())",
    "other values": "other values than the caller's",
}


def check_given(stages, number, at: str) -> None:
    """Each stage's ``.grad`` at its first forward were the caller's (``stage.grads_then``:
    :func:`grads_state`'s answer then). ``number(stage)``: its number in the hint, from 1."""
    for stage in stages:
        state = getattr(stage, "grads_then", "")
        if state:
            raise CheckFailed(
                f"{at} when stage {number(stage)}'s first forward ran, its parameters' .grad were "
                f"{_HELD[state]}, not the gradients the caller gave the step (the checker gave "
                "them some): your step zeroed the gradients, which the caller does, not the "
                "step. Putting a copy aside and adding it back at the end gives the right sums, "
                "but holds every gradient twice while the step runs. Leave .grad as it is: "
                "backward adds this step's gradients to it"
            )


def start_scale(grads, want, start) -> float | None:
    """The ``c`` (not 0 or 1) for which every gradient of ``grads`` is ``c`` times its
    ``start`` plus ``want`` (this step's own), if one does."""
    if any(g is None for g in grads) or not start:
        return None
    got = [g.detach().to("cpu") for g in grads]
    apart = torch.cat([(g - w).flatten() for g, w in zip(got, want, strict=True)])
    given = torch.cat([s.flatten() for s in start])
    if not bool(given.any()):
        return None
    c = float(apart @ given / (given @ given))  # least squares: apart = c * given
    fits = all(close(g, c * s + w, TOLERANCE) for g, w, s in zip(got, want, start, strict=True))
    return c if fits and min(abs(c), abs(c - 1)) > 1e-3 else None


def check_not_scaled(grads, want, start, at: str) -> None:
    """Name gradients that are the ones given scaled, plus this step's (:func:`start_scale`)."""
    c = start_scale(grads, want, start)
    if c is None:
        return
    how = f"divided by {1 / c:.4g}" if abs(c) < 1 else f"multiplied by {c:.4g}"
    raise CheckFailed(
        f"{at} this step's gradients are right, but the gradients already in .grad before the "
        f"step were {how} too: each .grad is {c:.4g} times the caller's plus this step's. "
        "Scaling .grad after backward (p.grad /= len(x), or a multiply) scales the gradients of "
        "earlier batches with this one's. Weight the loss instead: backward each micro-batch's "
        "loss times its share of the rows (len(x_i) / len(x)), and leave .grad alone after it"
    )
