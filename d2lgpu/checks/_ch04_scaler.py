"""``04.amp``'s rules on the GradScaler: the answer uses the one it is given (float16) and
makes none that scales under bfloat16; GradScaler's own refusals, named for the mistake;
what was clipped when not the whole model; what a call keeps from the call before.

:data:`FP16_ERRORS` are the errors GradScaler raises when a float16 loop calls it in the
wrong order; :func:`check_own_scaler` reads the GradScalers the answer made (recorded by
:func:`d2lgpu.checks._ch04_watch.run_answer`); :func:`partial_clip_hint` names a clip of
one parameter group, or of each tensor on its own; :func:`kept_from` and
:func:`check_nothing_kept` see the second call (bfloat16, another net) touch the first
call's scaler or gradients.
"""

from __future__ import annotations

from ._ch04_watch import STEPS
from ._kit import KnownError
from ._util import CheckFailed

__all__ = [
    "FP16_ERRORS",
    "SCALE_LOSS",
    "check_nothing_kept",
    "check_overflow",
    "check_own_scaler",
    "kept_from",
    "partial_clip_hint",
]

SCALE_LOSS = (
    "backpropagate the scaled loss, scaler.scale(loss).backward(), so small float16 gradients "
    "do not underflow to zero"
)

FP16_ERRORS = (
    KnownError(
        AssertionError,
        ("_scale is None",),
        f"scaler.unscale_ (or scaler.step) ran before any scaler.scale(loss): {SCALE_LOSS}",
    ),
    KnownError(
        ValueError,
        ("unscale FP16 gradients",),
        "the gradients are float16, so the parameters are no longer float32: don't "
        "call net.half() or net.to(dtype); autocast casts per operation and keeps "
        "float32 master weights",
    ),
    KnownError(
        AssertionError,
        ("No inf checks were recorded for this optimizer",),
        "scaler.step(opt) found no gradients: call opt.zero_grad() before "
        "scaler.scale(loss).backward(), not between backward() and the step",
    ),
    KnownError(
        AssertionError,
        ("No inf checks were recorded prior to update",),
        "scaler.update() ran with no scaler.step(opt) since the last update(): call it once "
        "per iteration, after scaler.step(opt)",
    ),
    KnownError(
        RuntimeError,
        ("unscale_() has already been called",),
        "scaler.unscale_(opt) ran twice in one step: call unscale_ once per step, after "
        "backward() and before clipping; scaler.step(opt) does not need it again (it unscales "
        "only gradients not yet unscaled), then scaler.update()",
    ),
    KnownError(
        RuntimeError,
        ("after step()", "since the last update()"),
        lambda error: (
            "the scaler refused to unscale again before update(): call "
            "scaler.update() after scaler.step(opt) in every iteration; it adjusts the scale "
            f"and resets the scaler for the next step (GradScaler said: {error})"
        ),
    ),
)


def check_own_scaler(seen, name):
    """The answer uses the scaler it is given (float16) and makes none under bfloat16."""
    own = [s for s in seen["scalers"] if name == "torch.float16" or s.is_enabled()]
    if own and name == "torch.float16":
        raise CheckFailed(
            f"your loop made its own GradScaler ({len(own)} for {STEPS} steps) instead of using "
            "the one it was given: use the scaler you were given, scaler.scale(loss), "
            "scaler.step(opt), scaler.update(); it carries the loss scale from step to step"
        )
    if own:
        raise CheckFailed(
            "with bfloat16 the scaler is None and your loop made a GradScaler of its own: "
            "bfloat16 needs no scaler (it has float32's range, its gradients do not underflow). "
            "When scaler is None, call loss.backward(), clip and opt.step() directly"
        )


def partial_clip_hint(seen, name, max_norm) -> str | None:
    """The hint when not all the gradients were clipped together to ``max_norm``: one of the
    optimizer's parameter groups only, or each parameter tensor on its own."""
    norms, groups = seen["norms"], seen["group_norms"]
    if not norms or max(norms) <= max_norm * 1.01:
        return None
    for i in range(len(groups[0]) if len(groups[0]) > 1 else 0):
        if all(abs(step[i] - max_norm) < 0.01 * max_norm for step in groups):
            return (
                f"with {name}, only the gradients of the optimizer's parameter group {i} (of "
                f"{len(groups[0])}) were clipped to max_norm={max_norm}, so the whole model's "
                f"norm was up to {max(norms):.3g}: clip all the model's parameters, "
                "clip_grad_norm_(net.parameters(), max_norm), whatever groups the optimizer has"
            )
    longest = seen["tensor_norms"]
    if max(longest) <= max_norm * 1.01 and max(longest) >= max_norm * 0.99:
        return (
            f"with {name}, each parameter tensor's gradient was clipped on its own: none was "
            f"longer than max_norm={max_norm}, but their total norm was up to {max(norms):.3g}. "
            "Clip all the parameters at once, clip_grad_norm_(net.parameters(), max_norm): one "
            "factor for them all, so that their total norm is max_norm"
        )
    return None


def kept_from(net, seen):
    """What the first call leaves that a later one must not touch: its scaler's log (and its
    length now), and its net's gradients' version counters."""
    log = seen["log"]
    grads = [p.grad for p in net.parameters() if p.grad is not None]
    return log, len(log), grads, [g._version for g in grads]


def check_nothing_kept(first, name):
    """The second call (scaler=None, another net) used nothing the first call was given."""
    log, length, grads, versions = first
    if len(log) > length:
        raise CheckFailed(
            f"with {name} (scaler=None), your loop still called the GradScaler of the earlier "
            f"call ({', '.join(sorted(set(log[length:])))}): keep no scaler between calls. Use "
            "the scaler each call is given, and none when scaler is None"
        )
    if [g._version for g in grads] != versions:
        raise CheckFailed(
            f"with {name}, your loop changed the gradients of the earlier call's net (its "
            "parameters kept from the first call and clipped again?): keep nothing between "
            "calls; clip the parameters of the net each call is given, "
            "clip_grad_norm_(net.parameters(), max_norm)"
        )


OVERFLOW_SCALE = 2.0**60  # float16 gradients times this overflow to inf at every step


def check_overflow(run) -> None:
    """``run(scaler_kwargs)`` runs the answer in float16 and returns what it saw: with a scale
    so large that the gradients overflow, scaler.step must find the infs and update() lower
    the scale; made finite before it looks (nan_to_num_, clamp_), they are stepped on."""
    seen = run({"init_scale": OVERFLOW_SCALE, "growth_interval": 10**6})
    if "scale" not in seen["log"]:
        raise CheckFailed(
            "in a third call (float16 again, with a new GradScaler), your loop never called "
            "the scaler it was given: it kept one from an earlier call. Use the scaler each "
            "call is given"
        )
    if seen["scaler"].get_scale() >= OVERFLOW_SCALE:
        raise CheckFailed(
            f"with torch.float16 and a loss scale of {OVERFLOW_SCALE:g}, so large that the "
            "gradients overflow to inf, the scaler never lowered its scale: it found no inf or "
            "nan, so the gradients were made finite before scaler.step looked (nan_to_num_, "
            "clamp_) and the optimizer stepped on garbage. Leave them as backward made them: "
            "scaler.step(opt) skips a step whose gradients overflowed, and scaler.update() "
            "halves the scale"
        )
