"""``09.pipeline``'s stages and devices: where each stage lives, and which tensor was misplaced.

* :func:`layouts`: the devices the cases run on. Two GPUs: ``cuda:0`` and ``cuda:1``.
  Otherwise two *pretend* GPUs, ``cuda:0`` and ``cuda:1``
  (:mod:`d2lgpu._device_watch`), so that stage 1 is never on the CPU where ``x``
  arrives and a micro-batch not moved to it is seen; with one GPU, the first case also
  runs for real with stage 1 on the CPU and stage 2 on that GPU.
* :class:`LoggedStage` logs each forward and the backward that reaches its output, notes
  stage 1's input that requires grad and its ``.grad`` at its first forward, and
  raises :class:`Misplaced` when its input is not on its parameters' device;
  :func:`watched_loss` does the same for ``loss_fn``'s output and targets. The hint
  then says which tensor went where, before torch's own error (a real GPU) or the
  watch's record (a pretend one) could only say "mixed devices".
  It also raises :class:`SwappedArgs` when ``loss_fn`` gets the targets first.
* :func:`mix_hint` names a mix found elsewhere (a running total, say) by the roles of its
  devices, and the learner's line where torch raised.
* :func:`moves` counts the elements of ``x`` and ``y`` (or views of them) copied to a
  device, which must be each batch once, not the whole batch at every micro-batch; and
  the ``torch.autocast`` regions entered, whose lower precision a CPU cannot show (autocast
  for a pretend GPU does nothing), which :func:`check_copies` and :func:`check_autocast` name.

What it is not: the checker; :mod:`d2lgpu.checks.ch09_model_parallel` runs the cases.
"""

from __future__ import annotations

import functools
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import torch
from torch import nn
from torch.overrides import TorchFunctionMode

from ._ch09_given_grads import grads_state
from ._ch09_pipeline_rules import gathered, swapped_loss_hint
from ._kit_calls import autocasts_asked, threads_started
from ._util import CheckFailed, describe_frame, learner_frame

__all__ = [
    "LoggedStage",
    "Misplaced",
    "SwappedArgs",
    "layouts",
    "misplaced_hint",
    "mix_hint",
    "watched_loss",
    "moves",
    "check_autocast",
    "check_copies",
    "check_left_as_given",
    "check_read_times",
]

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
        self.index, self.layers = index, layers
        self.reset(log)

    def reset(self, log: list) -> None:
        """What a case records, from nothing, into ``log`` (a stage a later case reuses)."""
        self._log = log
        self.reads: list = []  # the watch's host reads, while a step runs
        self.reads_before: list[int] = []  # how many there had been at each forward
        self.threads: set[int] = set()  # the threads its forwards and backwards ran on
        self.input_grad = False  # whether stage 1 got an input that requires grad
        self.rows_of: torch.Tensor | None = None  # x, whose runs of rows stage 1 must get
        self.gathered = False  # stage 1 got rows of x reordered or gathered (check_split)
        self.given: list | None = None  # the caller's gradients (_ch09_given_grads)
        self.grads_then: str | None = None  # what .grad held at the first forward

    def forward(self, h):
        device = next(self.layers.parameters()).device  # under the watch: a pretend GPU's
        if isinstance(h, torch.Tensor) and h.device != device:
            raise Misplaced(f"stage {self.index}'s input", h.device, device)
        if self.given is not None and self.grads_then is None:
            self.grads_then = grads_state(self.layers.parameters(), self.given)
        self.input_grad |= self.index == 1 and isinstance(h, torch.Tensor) and h.requires_grad
        if self.index == 1 and self.rows_of is not None and isinstance(h, torch.Tensor):
            with torch._C.DisableTorchFunction():  # out of the watches' sight, nothing kept
                self.gathered |= gathered(h.detach().to("cpu"), self.rows_of)
        entry = (self.index, len(h))
        self.threads.add(threading.get_ident())
        self._log.append((*entry, "forward"))
        self.reads_before.append(len(self.reads))
        out = self.layers(h)
        if out.requires_grad:
            out.register_hook(lambda grad: self._backward(entry))
        return out

    def _backward(self, entry) -> None:
        self.threads.add(threading.get_ident())
        self._log.append((*entry, "backward"))


class SwappedArgs(Misplaced):
    """``loss_fn(target, out)``: the targets first, the model's output second."""

    def __init__(self) -> None:
        Exception.__init__(self, "loss_fn got the targets first")
        self.what = "loss_fn's arguments"


def watched_loss(loss_fn, device: torch.device):
    """``loss_fn``, which raises :class:`Misplaced` when its targets are not on ``device``
    (stage 2's, where its output is), and :class:`SwappedArgs` when the first tensor it
    gets needs no gradient and the second does (the output)."""

    @functools.wraps(loss_fn)
    def loss(*args, **kwargs):
        tensors = [a for a in [*args, *kwargs.values()] if isinstance(a, torch.Tensor)]
        if len(tensors) >= 2 and tensors[1].requires_grad and not tensors[0].requires_grad:
            raise SwappedArgs()
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
    if isinstance(error, SwappedArgs):
        return swapped_loss_hint("stage 2's")
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


class _Moves(TorchFunctionMode):
    """Counts, in ``moved``, the elements of each named tensor (or a view of it) copied to a
    device other than the CPU (``.to(device)``, ``.cuda()``, ``device=``)."""

    def __init__(self, named: dict[str, torch.Tensor]):
        super().__init__()
        self.storages = {t.untyped_storage().data_ptr(): name for name, t in named.items()}
        self.moved = dict.fromkeys(named, 0)

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        name = getattr(func, "__name__", "")
        src = args[0] if args and isinstance(args[0], torch.Tensor) else None
        if src is not None and name in ("to", "cuda", "as_tensor", "tensor", "asarray"):
            given = [*args[1:], kwargs.get("device")] if name == "to" else [kwargs.get("device")]
            target = next((_device(a) for a in given if _device(a) is not None), None)
            if name == "cuda" or (target is not None and target.type != "cpu"):
                owner = self.storages.get(src.untyped_storage().data_ptr())
                if owner is not None:
                    self.moved[owner] += src.numel()
        return func(*args, **kwargs)


def _device(a) -> torch.device | None:
    if isinstance(a, torch.Tensor):
        return a.device
    if isinstance(a, str | torch.device) or (isinstance(a, int) and not isinstance(a, bool)):
        return torch.device("cuda", a) if isinstance(a, int) else torch.device(a)
    return None


@contextmanager
def moves(x: torch.Tensor, y: torch.Tensor) -> Iterator[tuple[dict[str, int], list[str]]]:
    """Yield ``(moved, autocasts)``: the elements of ``x`` and ``y`` copied to a device, and
    the autocast regions made or entered (their dtype), while the block runs."""

    watch = _Moves({"x": x, "y": y})
    # a thread the step started and left running is let finish, so that what it ran is seen
    # (check_left_as_given names it)
    with threads_started(join_timeout=2), autocasts_asked() as asked:
        autocasts: list[str] = []
        with watch:
            yield watch.moved, autocasts
    autocasts += [str(dtype).replace("torch.", "") for _, dtype in asked]


def check_autocast(autocasts: list[str], where: str) -> None:
    if autocasts:
        raise CheckFailed(
            f"for {where}, your step ran under torch.autocast ({autocasts[0]}): the stages' "
            "products then run in lower precision, and the loss and the gradients are no "
            "longer the float32 model's, which the step must give. Run the stages in their "
            "own precision (autocast is chapter 4's, for a whole training loop)"
        )


def check_copies(moved: dict[str, int], x, y, where: str) -> None:
    for name, t, stage in (("x", x, "1"), ("y", y, "2")):
        if moved[name] > t.numel():
            what = "batch" if name == "x" else "targets"
            raise CheckFailed(
                f"for {where}, your step copied {moved[name] // t.numel()} times as much of "
                f"the {what} {name} to a device as {name} holds: {name}.to(device) of all of "
                f"{name} inside the loop, then sliced, copies every row at every micro-batch. "
                f"Move each micro-batch's part ({name}_i.to(device)) to stage {stage}'s device, "
                f"or all of {name} once, before the loop"
            )


def check_left_as_given(stages, modes, pretend, where) -> None:
    """The stages' modes as the caller set them, and (on pretend GPUs, where autograd runs
    on the thread that calls backward) every forward and backward on the caller's thread."""
    if [m.training for s in stages for m in s.modules()] != modes:
        raise CheckFailed(
            f"for {where}, your step changed the stages' mode (stage.eval() or .train()): the "
            "caller's modules came back in another mode than they went in, which turns dropout "
            "off (or on) for everything after. A training step trains in the mode it is given"
        )
    threads = set().union(*(s.threads for s in stages)) - {threading.get_ident()}
    if pretend and threads:
        raise CheckFailed(
            f"for {where}, your step ran a stage's forward or backward on a thread of its own: "
            "it may still be writing the gradients when the step returns and the caller steps "
            "the optimizer. Run the micro-batches on the calling thread; the devices, not "
            "threads, run the stages side by side"
        )


def check_read_times(stages, where) -> None:
    """A host read before the last forward makes stage 1 wait for stage 2."""
    # Called once the schedule has passed and with at most one read: stage 2's last forward is
    # the step's last, and the count of reads before it tells whether the read came earlier.
    if stages[1].reads_before[-1]:
        raise CheckFailed(
            f"for {where}, your step read a device value on the host "
            f"({stages[1].reads[0]}) before the last "
            "micro-batch's forward: the host waits there until the device has finished, so "
            "stage 1 cannot run ahead while stage 2 works. Keep the losses tensors, and read "
            "the loss (if at all) once, after the backward"
        )
