"""Checker of chapter 4: ``04.amp``, an fp32 training loop converted to mixed precision.

The answer is ``train_amp(net, batches, opt, device_type, dtype, scaler)``:
float16 with a ``GradScaler`` (``scaler`` given), bfloat16 without one
(``scaler is None``). The checker runs it on ``try_gpu()`` (autocast works on
the CPU too) and watches:

* forward hooks on every ``nn.Linear`` record the dtype of its output: under
  autocast it is the low-precision dtype, while the parameters stay float32;
* a :class:`LoggingScaler` (a ``GradScaler`` that records its calls) and a
  wrapped ``torch.nn.utils.clip_grad_norm_`` record the order of
  scale / unscale_ / clip / step / update, and ``opt.step`` is wrapped to see
  whether the scaler or the loop called it;
* the losses are compared with the same loop in float32 from the same start.
"""

from __future__ import annotations

from contextlib import contextmanager

import torch
import torch.nn.functional as F
from torch import nn

from ._util import CheckFailed, one_cpu_thread

__all__ = ["make_problem", "train_fp32", "LoggingScaler", "check_amp", "MAX_NORM", "LOSS_TOL"]

MAX_NORM = 1.0
# The largest |loss - fp32 loss| over the run that still counts as tracking it.
LOSS_TOL = {torch.float16: 0.02, torch.bfloat16: 0.05}
STEPS = 16


def make_problem(device, seed: int = 0, steps: int = STEPS):
    """A small MLP and ``steps`` batches of a learnable 4-class problem, on ``device``."""
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        net = nn.Sequential(nn.Linear(32, 128), nn.ReLU(), nn.Linear(128, 4))
        teacher = torch.randn(32, 4)
        batches = []
        for _ in range(steps):
            X = torch.randn(64, 32)
            batches.append((X.to(device), (X @ teacher).argmax(dim=1).to(device)))
    return net.to(device), batches


def train_fp32(net, batches, opt, max_norm=MAX_NORM):
    """The float32 loop the exercise starts from: returns the per-step losses (on the device)."""
    losses = []
    for X, y in batches:
        loss = F.cross_entropy(net(X), y)
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm)
        opt.step()
        losses.append(loss.detach())
    return torch.stack(losses)


class LoggingScaler(torch.amp.GradScaler):
    """A ``GradScaler`` that appends ``scale``, ``unscale_``, ``step`` and ``update`` to ``log``."""

    def __init__(self, device_type, log, **kwargs):
        super().__init__(device_type, **kwargs)
        self.log = log
        self.in_step = False  # True while scaler.step() runs the optimizer's step

    def scale(self, outputs):
        self.log.append("scale")
        return super().scale(outputs)

    def unscale_(self, optimizer):
        self.log.append("unscale_")
        return super().unscale_(optimizer)

    def step(self, optimizer, *args, **kwargs):
        self.log.append("scaler.step")
        self.in_step = True
        try:
            return super().step(optimizer, *args, **kwargs)
        finally:
            self.in_step = False

    def update(self, new_scale=None):
        self.log.append("update")
        return super().update(new_scale)


@contextmanager
def _logging_clip(log):
    import torch.nn.utils as utils
    import torch.nn.utils.clip_grad as clip_grad

    original = clip_grad.clip_grad_norm_

    def logged(*args, **kwargs):
        log.append("clip")
        return original(*args, **kwargs)

    saved = utils.clip_grad_norm_, clip_grad.clip_grad_norm_
    utils.clip_grad_norm_ = clip_grad.clip_grad_norm_ = logged
    try:
        yield
    finally:
        utils.clip_grad_norm_, clip_grad.clip_grad_norm_ = saved


def _losses(value, name):
    try:
        losses = (
            torch.as_tensor([float(v) for v in value])
            if not isinstance(value, torch.Tensor)
            else value.detach().float().cpu().reshape(-1)
        )
    except (TypeError, ValueError):
        raise CheckFailed(
            f"{name} returned a {type(value).__name__}: return the per-step losses, like "
            "train_fp32 (torch.stack of loss.detach())"
        ) from None
    if losses.numel() != STEPS:
        raise CheckFailed(
            f"{name} returned {losses.numel()} losses for {STEPS} batches: one per step"
        )
    return losses


def _run(answer, device, dtype, scaler_kwargs):
    log: list[str] = []
    net, batches = make_problem(device)
    opt = torch.optim.SGD(net.parameters(), lr=0.2)
    scaler = None if scaler_kwargs is None else LoggingScaler(device.type, log, **scaler_kwargs)
    step = opt.step

    def logged_step(*args, **kwargs):
        if scaler is None or not scaler.in_step:
            log.append("opt.step")
        return step(*args, **kwargs)

    opt.step = logged_step
    out_dtypes: list[torch.dtype] = []
    hooks = [
        m.register_forward_hook(lambda mod, inp, out: out_dtypes.append(out.dtype))
        for m in net.modules()
        if isinstance(m, nn.Linear)
    ]
    try:
        with _logging_clip(log):
            losses = answer(net, batches, opt, device.type, dtype, scaler)
    finally:
        for h in hooks:
            h.remove()
    return net, _losses(losses, "train_amp"), log, out_dtypes


def _check_forward(net, out_dtypes, dtype, name):
    if not out_dtypes:
        raise CheckFailed("the model was never called: run net(X) for every batch")
    if any(p.dtype != torch.float32 for p in net.parameters()):
        raise CheckFailed(
            "the parameters are no longer float32: don't call net.half() or net.to(dtype); "
            "autocast casts per operation and keeps float32 master weights"
        )
    wrong = sorted({str(d) for d in out_dtypes if d != dtype})
    if wrong:
        raise CheckFailed(
            f"with {name}, the forward pass produced {', '.join(wrong)} outputs: run net(X) "
            f"(and the loss) inside torch.amp.autocast(device_type, dtype={name})"
        )


def _reference(device):
    net, batches = make_problem(device)
    opt = torch.optim.SGD(net.parameters(), lr=0.2)
    return train_fp32(net, batches, opt).float().cpu()


def _check_tracks(losses, reference, dtype, name):
    gap = (losses - reference).abs().max().item()
    if not gap <= LOSS_TOL[dtype]:  # also catches nan
        raise CheckFailed(
            f"with {name}, the losses drift from the float32 run by up to {gap:.3g} (tolerance "
            f"{LOSS_TOL[dtype]}): compute the loss from the autocast forward, and step the "
            "optimizer every iteration"
        )


@one_cpu_thread
def check_amp(answer, passed):
    """float16 with a GradScaler and bfloat16 without, against the float32 loop."""
    from ..devices import try_gpu

    if not callable(answer):
        raise CheckFailed("pass the function itself: check('04.amp', train_amp)")
    device = try_gpu()
    reference = _reference(device)

    # float16: a modest initial scale, so that no step overflows and is skipped.
    try:
        net, losses, log, out_dtypes = _run(
            answer, device, torch.float16, {"init_scale": 2.0**10, "growth_interval": 10**6}
        )
    except ValueError as error:
        if "unscale FP16 gradients" in str(error):
            raise CheckFailed(
                "the gradients are float16, so the parameters are no longer float32: don't "
                "call net.half() or net.to(dtype); autocast casts per operation and keeps "
                "float32 master weights"
            ) from None
        raise
    except RuntimeError as error:
        if "after step()" in str(error) or "since the last update()" in str(error):
            raise CheckFailed(
                "the scaler refused to unscale again before update(): call scaler.update() "
                "after scaler.step(opt) in every iteration; it adjusts the scale and resets "
                f"the scaler for the next step (GradScaler said: {error})"
            ) from None
        raise
    _check_forward(net, out_dtypes, torch.float16, "torch.float16")
    passed.append(
        "float16: the forward runs in float16 under autocast; the parameters stay float32"
    )
    counts = {event: log.count(event) for event in ("scale", "scaler.step", "update", "opt.step")}
    if counts["scale"] != STEPS:
        raise CheckFailed(
            f"scaler.scale was called {counts['scale']} times for {STEPS} steps: backpropagate "
            "the scaled loss, scaler.scale(loss).backward(), so small float16 gradients do "
            "not underflow to zero"
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
    if counts["update"] != STEPS:
        raise CheckFailed(
            f"scaler.update() ran {counts['update']} times for {STEPS} steps: call it after "
            "scaler.step(opt) in every iteration; it adjusts the scale for the next one"
        )
    passed.append("float16: the loss is scaled, and the scaler is stepped and updated every step")
    if log.count("clip") != STEPS:
        raise CheckFailed(
            f"clip_grad_norm_ ran {log.count('clip')} times for {STEPS} steps: keep the "
            "clipping of the float32 loop (torch.nn.utils.clip_grad_norm_)"
        )
    # Within each iteration (between two scale calls), unscale_ must come before clip.
    iteration: list[str] = []
    for event in [*log, "scale"]:
        if event == "scale" and iteration:
            if "clip" in iteration and (
                "unscale_" not in iteration or iteration.index("unscale_") > iteration.index("clip")
            ):
                raise CheckFailed(
                    "the gradients were clipped while still scaled (by the scaler's factor, "
                    "here 1024): call scaler.unscale_(opt) before clip_grad_norm_, or the "
                    "threshold max_norm means nothing"
                )
            iteration = []
        iteration.append(event)
    passed.append("float16: the gradients are unscaled before clipping")
    _check_tracks(losses, reference, torch.float16, "torch.float16")
    passed.append(f"float16: the losses track the float32 run (within {LOSS_TOL[torch.float16]})")

    try:
        net, losses, log, out_dtypes = _run(answer, device, torch.bfloat16, None)
    except AttributeError as error:
        if "NoneType" in str(error):
            raise CheckFailed(
                "with bfloat16 the scaler is None (bfloat16 has float32's range, nothing to "
                "scale): then call loss.backward(), clip and opt.step() directly"
            ) from None
        raise
    _check_forward(net, out_dtypes, torch.bfloat16, "torch.bfloat16")
    if log.count("opt.step") != STEPS or log.count("clip") != STEPS:
        raise CheckFailed(
            "with bfloat16 every iteration should clip and call opt.step() once "
            f"(saw {log.count('clip')} clips and {log.count('opt.step')} steps for {STEPS} batches)"
        )
    passed.append("bfloat16: the forward runs in bfloat16, without a scaler, clipping every step")
    _check_tracks(losses, reference, torch.bfloat16, "torch.bfloat16")
    passed.append(f"bfloat16: the losses track the float32 run (within {LOSS_TOL[torch.bfloat16]})")
