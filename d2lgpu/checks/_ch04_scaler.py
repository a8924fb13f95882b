"""``04.amp``'s rules on the GradScaler: the answer uses the one it is given (float16) and
makes none that scales under bfloat16; GradScaler's own refusals, named for the mistake.

:data:`FP16_ERRORS` are the errors GradScaler raises when a float16 loop calls it in the
wrong order; :func:`check_own_scaler` reads the GradScalers the answer made (recorded by
:func:`d2lgpu.checks._ch04_watch.run_answer`).
"""

from __future__ import annotations

from ._ch04_watch import STEPS
from ._kit import KnownError
from ._util import CheckFailed

__all__ = ["FP16_ERRORS", "SCALE_LOSS", "check_own_scaler"]

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
