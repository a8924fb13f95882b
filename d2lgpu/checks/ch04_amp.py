"""Checker of chapter 4: ``04.amp``, an fp32 training loop converted to mixed precision.

The answer is ``train_amp(net, batches, opt, device_type, dtype, scaler)``:
float16 with a ``GradScaler`` (``scaler`` given), bfloat16 without one
(``scaler is None``). The checker runs it on ``try_gpu()`` (autocast works on
the CPU too) and watches what the loop *does*, however it is written:

* forward hooks on every ``nn.Linear`` record the dtype of its output: under
  autocast it is the low-precision dtype, while the parameters stay float32;
  the ``device_type`` each ``autocast`` is entered with is recorded too;
* a :class:`LoggingScaler` (a ``GradScaler`` that records its calls) and a
  wrapped ``opt.step`` record scale / step / update, and the norm of the
  gradients each time the optimizer steps: the problem's gradients are larger
  than ``max_norm`` at every step, so a clipped step has norm ``max_norm``, one
  clipped while still scaled has ``max_norm / scale``, an unclipped one more;
* a hook on every parameter sees, at each backward, whether the previous
  step's gradients were cleared (``zero_grad``); each ``backward()`` run while
  autocast is on is counted (autocast wraps the forward pass and the loss only);
* every ``GradScaler`` the answer makes is recorded (it must use the one given, and
  make none that scales under bfloat16);
* reads of tensors on the host made by the loop itself (``loss.item()``,
  ``float(loss)``) are counted: on a GPU each one waits for the device;
* what comes back must be what ``train_fp32`` returns: one tensor, detached, on the
  device (not what a ``.cpu()`` of the answer returned);
* the optimizer has two parameter groups (the biases apart), and each step's norm is
  also taken per group and per tensor: a clip of one group, or of each tensor, is named;
* the bfloat16 call, on another net, must touch neither the float16 call's scaler nor
  its net's gradients (nothing kept between calls);
* the losses are compared with the same loop in float32 from the same start.
"""

from __future__ import annotations

import torch

from ._ch04_returned import check_returned, losses_of
from ._ch04_scaler import (
    FP16_ERRORS,
    SCALE_LOSS,
    check_nothing_kept,
    check_overflow,
    check_own_scaler,
    kept_from,
    partial_clip_hint,
)
from ._ch04_watch import MAX_NORM, STEPS, clip_kind_hint, reference_losses, run_answer
from ._kit import call_answer
from ._util import CheckFailed, describe_frame, one_cpu_thread

__all__ = ["check_amp", "LOSS_TOL"]

# The largest |loss - fp32 loss| over the run that still counts as tracking it.
LOSS_TOL = {torch.float16: 0.02, torch.bfloat16: 0.05}
# The answer is called with a max_norm other than its default (MAX_NORM), a different one
# per dtype, so that a threshold written into the loop shows; every step's gradients exceed
# both, so clipping changes every step.
TEST_MAX_NORM = {torch.float16: 0.5, torch.bfloat16: 0.75}
HALF = (torch.float16, torch.bfloat16)
# The fp16 run's loss scale (a GradScaler that never grows or overflows in 16 steps).
FP16_SCALE = 2.0**10


def _run(answer, device, dtype, scaler_kwargs):
    """Run the answer with ``max_norm=TEST_MAX_NORM[dtype]``; return what it did."""
    net, losses, seen = run_answer(answer, device, dtype, scaler_kwargs, TEST_MAX_NORM[dtype])
    seen["returned"] = losses
    return net, losses_of(losses, "train_amp"), seen


def _check_forward(net, seen, dtype, name, device):
    if not seen["out"]:
        raise CheckFailed("the model was never called: run net(X) for every batch")
    stepped = next((str(d) for step in seen["stepped_as"] for d in sorted(map(str, step))), None)
    if any(p.dtype != torch.float32 for p in net.parameters()):
        raise CheckFailed(
            "the parameters are no longer float32: don't call net.half() or net.to(dtype); "
            "autocast casts per operation and keeps float32 master weights"
        )
    if stepped:  # float32 again only at the end
        raise CheckFailed(
            f"the optimizer stepped {stepped} parameters, cast back to float32 only after the "
            "loop: don't call net.half() or net.to(dtype), not even for the loop alone; "
            "autocast casts per operation and keeps float32 master weights, which each step "
            "updates"
        )
    wrong = sorted({str(d) for d in seen["out"] if d != dtype})
    if wrong:
        other = sorted({t for t in seen["autocast"] if t != device.type})
        if other:
            raise CheckFailed(
                f"autocast was entered with device_type {other[0]!r} while the model is on "
                f"{device.type}: it casts nothing there. Use the device_type argument, "
                f"torch.autocast(device_type, dtype=dtype)"
            )
        raise CheckFailed(
            f"with {name}, the forward pass produced {', '.join(wrong)} outputs: run net(X) "
            f"(and the loss) inside torch.amp.autocast(device_type, dtype={name})"
        )
    scaled = seen["scaler"].scaled if seen["scaler"] is not None else set()
    low = sorted(str(d) for d in scaled | seen["calls"].roots if d in HALF)
    if low:  # a loss computed in 16 bits, whatever dtype the answer returns it in
        raise CheckFailed(
            f"with {name}, the loss was computed in {low[0]}, outside autocast, on the 16-bit "
            "logits: compute the loss inside autocast too (autocast runs cross_entropy in "
            "float32), as well as net(X); a cast to float32 after it is computed gives no "
            "bits back"
        )
    if seen["calls"].backward_in_autocast:
        raise CheckFailed(
            f"with {name}, backward() ran inside the autocast block: autocast wraps only the "
            "forward pass and the loss. Leave the with block before backward(), unscale_, "
            "clipping and the step"
        )


def _check_steps(seen, name, scaled: bool, max_norm: float):
    """Every optimizer step saw fresh, unscaled gradients clipped to ``max_norm``."""
    norms = seen["norms"]
    if len(norms) != STEPS:
        raise CheckFailed(
            f"with {name}, the optimizer stepped {len(norms)} times for {STEPS} batches: "
            "once per batch"
        )
    if min(norms) == 0.0:
        raise CheckFailed(
            f"with {name}, the optimizer stepped with no gradients: call opt.zero_grad() "
            "before loss.backward(), not between backward() and the step"
        )
    if seen["stale"]:
        raise CheckFailed(
            f"with {name}, backward() found gradients already in p.grad (the previous step's, "
            "or at the first step those the caller left on the model), and added to them: "
            "call opt.zero_grad() before loss.backward() in every iteration"
        )
    # Clipped before unscale_: every step's norm is max_norm divided by the scaler's factor
    # (a threshold of another norm, unscaled first, also gives short steps, not these).
    if scaled and all(abs(n * FP16_SCALE - max_norm) < 0.01 * max_norm for n in norms):
        raise CheckFailed(
            "the gradients were clipped while still scaled (by the scaler's factor, here "
            f"{FP16_SCALE:g}), so the steps were {max(norms):.2g} long instead of {max_norm}: "
            "call "
            "scaler.unscale_(opt) before clip_grad_norm_, or the threshold max_norm means "
            "nothing"
        )
    if max_norm != MAX_NORM and all(abs(n - MAX_NORM) < 0.01 * MAX_NORM for n in norms):
        raise CheckFailed(
            f"with {name}, the gradients were clipped to {MAX_NORM:g}, the default, although "
            f"train_amp was called with max_norm={max_norm}: clip with the argument, "
            "clip_grad_norm_(net.parameters(), max_norm), not a number written into the loop"
        )
    if hint := partial_clip_hint(seen, name, max_norm):
        raise CheckFailed(hint)
    if hint := clip_kind_hint(seen, name, max_norm):
        raise CheckFailed(hint)
    if max(norms) > max_norm * 1.01 or min(norms) < max_norm * 0.99:
        raise CheckFailed(
            f"with {name}, the gradients' norm at the optimizer's step was between "
            f"{min(norms):.3g} and {max(norms):.3g}, not clipped to max_norm={max_norm}: keep "
            "torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm) after backward() "
            + ("and scaler.unscale_(opt), and before scaler.step(opt)" if scaled else
               "and before opt.step()")
            + ": a clip after the step changes gradients the step has already used"
        )  # fmt: skip


def _times(n: int) -> str:
    return "once" if n == 1 else f"{n} times"


def _check_reads(seen, name):
    # Reads after the last step are the end's transfer (one wait, then host data); reads
    # before it are made in the loop, and on a GPU each waits for the device.
    calls = seen["calls"]
    if calls.rebuilt:
        raise CheckFailed(
            f"with {name}, your loop made a tensor from a list of tensors ({calls.rebuilt[0]}"
            "(losses)): it reads every loss on the host, a wait for the GPU each, and makes a new "
            "tensor on the CPU. Return torch.stack(losses), which stays on the device"
        )
    # one count per step (_check_steps held the steps to one per batch); each read recorded
    # is the learner's, the first one's line with it
    reads = seen["reads"]
    if seen["reads_at_step"][-1]:
        raise CheckFailed(
            f"with {name}, your loop read tensors on the host {_times(len(reads))} in {STEPS} "
            f"steps ({', '.join(sorted(set(reads)))}; the first "
            f"{describe_frame(calls.first_read)}): each read (loss.item(), "
            "float(loss), or a call that reads for you) waits for the GPU. Keep the losses on "
            "the device (losses.append(loss.detach())) and return torch.stack(losses)"
        )


def _check_tracks(losses, reference, dtype, name):
    gap = (losses - reference).abs().max().item()
    if dtype == torch.float16 and not gap <= LOSS_TOL[dtype]:
        scaled_gap = (losses / FP16_SCALE - reference).abs().max().item()
        if scaled_gap <= LOSS_TOL[dtype]:
            raise CheckFailed(
                f"with {name}, the losses you return are the scaled ones, {FP16_SCALE:g} times "
                "too large (the scaler's factor): backpropagate scaler.scale(loss) but keep "
                "loss itself for the log, losses.append(loss.detach())"
            )
    if not gap <= LOSS_TOL[dtype]:  # also catches nan
        raise CheckFailed(
            f"with {name}, the losses drift from the float32 run by up to {gap:.3g} (tolerance "
            f"{LOSS_TOL[dtype]}): compute the loss from the autocast forward, and step the "
            "optimizer every iteration"
        )


def check_amp(answer, passed):
    """float16 with a GradScaler and bfloat16 without, against the float32 loop."""
    if not callable(answer):
        raise CheckFailed("pass the function itself: check('04.amp', train_amp)")
    one_cpu_thread(_check_amp)(answer, passed)


def _run_fp16(answer, device):
    # A modest initial scale, so that no step overflows and is skipped.
    scaler = {"init_scale": FP16_SCALE, "growth_interval": 10**6}
    return call_answer(_run, answer, device, torch.float16, scaler, known=FP16_ERRORS)


def _check_amp(answer, passed):
    from ..devices import try_gpu

    device = try_gpu()
    reference = reference_losses(device, TEST_MAX_NORM[torch.float16])

    net, losses, seen = _run_fp16(answer, device)
    check_own_scaler(seen, "torch.float16")
    _check_forward(net, seen, torch.float16, "torch.float16", device)
    passed.append(
        "float16: the forward runs in float16 under autocast; the parameters stay float32"
    )
    log = seen["log"]
    counts = {event: log.count(event) for event in ("scale", "scaler.step", "update", "opt.step")}
    if counts["scale"] != STEPS:
        raise CheckFailed(
            f"scaler.scale was called {counts['scale']} times for {STEPS} steps: {SCALE_LOSS}"
        )
    if counts["opt.step"]:
        raise CheckFailed(
            "the loop calls opt.step() itself: call scaler.step(opt) instead, which unscales "
            "the gradients and skips the step when they overflowed"
        )
    if counts["scaler.step"] != STEPS:
        raise CheckFailed(
            f"scaler.step(opt) ran {counts['scaler.step']} times for {STEPS} steps: once per "
            "iteration"
        )
    if "update(new_scale)" in log:
        raise CheckFailed(
            "the loop calls scaler.update(new_scale), which sets the loss scale to the number "
            "it is given at every step: the scale then never halves after an overflow (every "
            "later step would overflow and be skipped) nor grows. Call scaler.update() with no "
            "argument: the scaler adjusts its scale itself"
        )
    if counts["update"] != STEPS:
        raise CheckFailed(
            f"scaler.update() ran {counts['update']} times for {STEPS} steps: call it after "
            "scaler.step(opt) in every iteration; it adjusts the scale for the next one"
        )
    passed.append("float16: the loss is scaled, and the scaler is stepped and updated every step")
    _check_steps(seen, "torch.float16", scaled=True, max_norm=TEST_MAX_NORM[torch.float16])
    passed.append(
        "float16: every step starts from zeroed gradients, unscaled before clipping "
        "(the steps' gradient norm is the max_norm passed, not the default)"
    )
    _check_reads(seen, "torch.float16")
    check_returned(seen, device, "torch.float16")
    _check_tracks(losses, reference, torch.float16, "torch.float16")
    passed.append(f"float16: the losses track the float32 run (within {LOSS_TOL[torch.float16]})")

    first = kept_from(net, seen)  # the second call, on another net, must touch none of it
    try:
        net, losses, seen = _run(answer, device, torch.bfloat16, None)
    except AttributeError as error:
        if "NoneType" in str(error):
            raise CheckFailed(
                "with bfloat16 the scaler is None (bfloat16 has float32's range, nothing to "
                "scale): then call loss.backward(), clip and opt.step() directly"
            ) from None
        raise
    check_nothing_kept(first, "torch.bfloat16")
    check_own_scaler(seen, "torch.bfloat16")
    _check_forward(net, seen, torch.bfloat16, "torch.bfloat16", device)
    _check_steps(seen, "torch.bfloat16", scaled=False, max_norm=TEST_MAX_NORM[torch.bfloat16])
    _check_reads(seen, "torch.bfloat16")
    check_returned(seen, device, "torch.bfloat16")
    passed.append("bfloat16: the forward runs in bfloat16, without a scaler, clipping every step")
    reference = reference_losses(device, TEST_MAX_NORM[torch.bfloat16])
    _check_tracks(losses, reference, torch.bfloat16, "torch.bfloat16")
    passed.append(f"bfloat16: the losses track the float32 run (within {LOSS_TOL[torch.bfloat16]})")
    check_overflow(lambda kwargs: call_answer(_run, answer, device, torch.float16, kwargs,
                                              known=FP16_ERRORS)[2])  # fmt: skip
    passed.append("float16, once more: a scale so large that the gradients overflow is lowered")
