"""``09.pipeline``'s stages and devices: where each stage lives, and which tensor was misplaced.

* :func:`layouts`: the devices the cases run on. Two GPUs: ``cuda:0`` and ``cuda:1``.
  Otherwise two *pretend* GPUs, ``cuda:0`` and ``cuda:1``
  (:mod:`d2lgpu._device_watch`), so that stage 1 is never on the CPU where ``x``
  arrives and a micro-batch not moved to it is seen; with one GPU, the first case also
  runs for real with stage 1 on the CPU and stage 2 on that GPU.
* :class:`LoggedStage` logs each forward and the backward that reaches its output, and
  raises :class:`Misplaced` when its input is not on its parameters' device;
  :func:`watched_loss` does the same for ``loss_fn``'s output and targets. The hint
  then says which tensor went where, before torch's own error (a real GPU) or the
  watch's record (a pretend one) could only say "mixed devices".
* :func:`mix_hint` names a mix found elsewhere (a running total, say) by the roles of its
  devices, and the learner's line where torch raised.

What it is not: the checker; :mod:`d2lgpu.checks.ch09_model_parallel` runs the cases.
"""

from __future__ import annotations

import functools
import re

import torch
from torch import nn

from ._util import describe_frame, learner_frame

__all__ = ["LoggedStage", "Misplaced", "layouts", "misplaced_hint", "mix_hint", "watched_loss"]

CPU = torch.device("cpu")


def layouts() -> list[tuple[torch.device, torch.device, bool]]:
    """``(stage 1's device, stage 2's, whether pretend)`` for each run of the cases."""
    gpus = torch.cuda.device_count()  # 0 where CUDA is not available
    two = (torch.device("cuda", 0), torch.device("cuda", 1))
    if gpus >= 2:
        return [(*two, False)]
    if gpus == 1:
        return [(*two, True), (CPU, torch.device("cuda", 0), False)]
    return [(*two, True)]


class Misplaced(Exception):
    """A stage or ``loss_fn`` got a tensor on another device than where it runs."""

    def __init__(self, what: str, got: torch.device, want: torch.device):
        super().__init__(f"{what} on {got}, expected {want}")
        self.what, self.got, self.want = what, got, want


class LoggedStage(nn.Module):
    """A stage that logs ``(stage, rows, "forward")`` for every forward call into a shared
    list, and ``(stage, rows, "backward")`` when backward reaches that call's output."""

    def __init__(self, index: int, layers: nn.Module, log: list):
        super().__init__()
        self.index, self.layers, self._log = index, layers, log
        self.reads: list = []  # the watch's host reads, while a step runs
        self.reads_before: list[int] = []  # how many there had been at each forward

    def forward(self, h):
        device = next(self.layers.parameters()).device  # under the watch: a pretend GPU's
        if isinstance(h, torch.Tensor) and h.device != device:
            raise Misplaced(f"stage {self.index}'s input", h.device, device)
        entry = (self.index, len(h))
        self._log.append((*entry, "forward"))
        self.reads_before.append(len(self.reads))
        out = self.layers(h)
        if out.requires_grad:
            out.register_hook(lambda grad: self._log.append((*entry, "backward")))
        return out


def watched_loss(loss_fn, device: torch.device):
    """``loss_fn``, which raises :class:`Misplaced` when its targets are not on ``device``
    (stage 2's, where its output is)."""

    @functools.wraps(loss_fn)
    def loss(*args, **kwargs):
        tensors = [a for a in [*args, *kwargs.values()] if isinstance(a, torch.Tensor)]
        if len(tensors) >= 2 and tensors[0].device == device and tensors[1].device != device:
            raise Misplaced("loss_fn's targets", tensors[1].device, device)
        return loss_fn(*args, **kwargs)

    return loss


def _role(device, dev1, dev2) -> str:
    device = torch.device(device)
    if device == dev1 == CPU:
        return "the CPU (stage 1's device, where x and y arrive)"
    if device == dev1:
        return f"stage 1's device ({device})"
    if device == dev2:
        return f"stage 2's device ({device})"
    if device.type == "cpu":
        return "the CPU (where x and y arrive)"
    return f"{device}, neither stage's device"


_WHERE_TO = {
    "stage 1's input": "each micro-batch goes to stage 1's device before stage 1",
    "stage 2's input": "stage 1's output (the activations) goes to stage 2's device before "
    "stage 2, with to(), which autograd follows",
    "loss_fn's targets": "each micro-batch's targets go to stage 2's device, where loss_fn runs",
}


def misplaced_hint(error: Misplaced, dev1, dev2) -> str:
    """``stage 1's input was on the CPU (where x and y arrive), not on stage 1's ...``."""
    verb = "were" if error.what.endswith("targets") else "was"
    return (
        f"{error.what} {verb} on {_role(error.got, dev1, dev2)}, not on "
        f"{_role(error.want, dev1, dev2)}: {_WHERE_TO[error.what]}"
    )


def mix_hint(mix: str, dev1, dev2, tb=None) -> str:
    """A mix of devices that no stage caught (a running total, a stack of losses), named by
    the roles of its devices and, from the traceback ``tb`` of torch's error, the line."""
    found = list(dict.fromkeys(re.findall(r"\b(cuda:\d+|cpu|meta)\b", mix)))
    if "device tensor" in mix and "cuda:0" not in found:  # the pretend watch's wording
        found.insert(0, "cuda:0")
    if re.search(r"got (a device tensor|a tensor on cuda:\d+) and ", mix):  # and a CPU one
        found.append("cpu")
    roles = [_role(d, dev1, dev2) for d in found[:2]] + ["another device"] * (2 - len(found))
    frame = learner_frame(tb) if tb is not None else None
    at = f" {describe_frame(frame)}" if frame is not None else ""
    cpu = "cpu" in found or "device type cpu" in mix
    return (
        f"your step mixed devices ({mix}){at}: a tensor on {roles[0]} met one on {roles[1]}. "
        + ("A tensor made without device= is on the CPU. " if cpu else "")
        + "A tensor stays on its device until moved: make it on, or move it (to()) to, the "
        "device of the tensors it meets"
    )
