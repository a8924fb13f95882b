"""What the ``04.amp`` checker runs and watches: the problem, the float32 loop, the probes.

* :func:`make_problem`: a small MLP and batches whose gradients' norm exceeds
  ``MAX_NORM`` at every step, so clipping always shows;
* :func:`train_fp32`: the float32 loop the exercise starts from;
* :class:`LoggingScaler`: a ``GradScaler`` that records its calls;
* :class:`LearnerReads`: counts host reads (``.item()``, ``float()``...) made by the
  learner's own code, keeps what its ``.cpu()`` calls returned, and counts the backward
  passes run while autocast was on;
* :func:`autocast_device_types`: records each ``autocast``'s ``device_type``;
* :func:`run_answer`: the answer run on the problem with all of them watching, and
  :func:`reference_losses`, the float32 loop's losses to compare with.
"""

from __future__ import annotations

import sys
import weakref

import torch
import torch.nn.functional as F
from torch import nn
from torch.overrides import TorchFunctionMode

from ._kit import calls_to
from ._kit_calls import closure_first
from ._kit_process import defaults_kept
from ._util import CheckFailed, learner_line

__all__ = [
    "MAX_NORM",
    "STEPS",
    "LearnerReads",
    "LoggingScaler",
    "autocast_device_types",
    "grad_norm",
    "make_problem",
    "reference_losses",
    "run_answer",
    "train_fp32",
]

MAX_NORM = 1.0
STEPS = 16


def make_problem(device, seed: int = 0, steps: int = STEPS):
    """A small MLP and ``steps`` batches of a learnable 4-class problem, on ``device``.

    The inputs are scaled so that the gradients' norm exceeds ``MAX_NORM`` at every step of
    the float32 loop (1.4 to 3.6): clipping changes every step, so it shows.
    """
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        net = nn.Sequential(nn.Linear(32, 128), nn.ReLU(), nn.Linear(128, 4))
        teacher = torch.randn(32, 4)
        batches = []
        for _ in range(steps):
            X = torch.randn(64, 32) * 3.0
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
    """A ``GradScaler`` that appends ``scale``, ``scaler.step`` and ``update`` to ``log`` (the
    checker counts them; ``unscale_`` it judges by the gradients' norm at each step)."""

    def __init__(self, device_type, log, **kwargs):
        super().__init__(device_type, **kwargs)
        self.log = log
        self.in_step = False  # True while scaler.step() runs the optimizer's step
        self.scaled: set[torch.dtype] = set()  # the dtypes of the losses given to scale()

    def scale(self, outputs):
        self.log.append("scale")
        self.scaled |= {t.dtype for t in _tensors(outputs)}
        return super().scale(outputs)

    def step(self, optimizer, *args, **kwargs):
        self.log.append("scaler.step")
        self.in_step = True
        try:
            return super().step(optimizer, *args, **kwargs)
        finally:
            self.in_step = False

    def update(self, new_scale=None):
        self.log.append("update" if new_scale is None else "update(new_scale)")
        return super().update(new_scale)


HOST_READS = {"item", "tolist", "numpy", "__float__", "__int__", "__bool__", "__format__", "cpu"}
HOST_READS |= {"__array__"}
# Functions that make a tensor from their data: given a list of tensors, they read each one
# on the host (a wait each on a GPU) and make a new tensor there.
REBUILDS = {"tensor", "as_tensor"}
# The losses the problem's classification takes: their dtype is the loss's, however cast after.
LOSSES = {"cross_entropy", "nll_loss"}


def _tensors(data) -> list[torch.Tensor]:
    """The tensors ``data`` is or holds (one level: a tensor, or a list or tuple of them)."""
    items = data if isinstance(data, list | tuple) else [data]
    return [t for t in items if isinstance(t, torch.Tensor)]


def _holds_tensors(data) -> bool:
    return isinstance(data, list | tuple) and any(isinstance(v, torch.Tensor) for v in data)


class LearnerReads(TorchFunctionMode):
    """Count the host reads (``.item()``, ``float()``, ``.tolist()``...) made by the learner's
    code, and the line of the first; keep (weakly) what its ``.cpu()`` calls returned, note
    each ``torch.tensor(list of tensors)``, count the ``backward()`` calls made while
    autocast was on (on any device type), and note the dtypes backward (or autograd.grad)
    started from."""

    def __init__(self):
        super().__init__()
        self.reads: list[str] = []
        self.first_read = None  # the learner's line of the first read (a FrameSummary)
        self.rebuilt: list[str] = []  # torch.tensor(...) of a list of tensors, by name
        self.to_host: list[weakref.ref] = []
        self.backward_in_autocast = 0
        # the dtypes of the tensors backward started from, and of every loss computed
        self.roots: set[torch.dtype] = set()

    def __torch_function__(self, func, types, args=(), kwargs=None):
        name = getattr(func, "__name__", "")
        if name == "backward" and any(torch.is_autocast_enabled(t) for t in ("cpu", "cuda")):
            self.backward_in_autocast += 1
        if name in ("backward", "grad") and args:
            self.roots |= {t.dtype for t in _tensors(args[0])}
        line = learner_line(sys._getframe(1)) if name in HOST_READS | REBUILDS else None
        learner = line is not None and name in HOST_READS
        if learner:
            self.reads.append(name)
            self.first_read = self.first_read or line
        if line is not None and name in REBUILDS and args and _holds_tensors(args[0]):
            self.rebuilt.append(f"torch.{name}")
        result = func(*args, **(kwargs or {}))
        if name in LOSSES and isinstance(result, torch.Tensor):
            self.roots.add(result.dtype)
        if learner and name == "cpu" and isinstance(result, torch.Tensor):
            self.to_host.append(weakref.ref(result))
        return result

    def moved_to_host(self, value) -> bool:
        """Whether ``value`` is what one of the learner's ``.cpu()`` calls returned."""
        return any(ref() is value for ref in self.to_host)


def autocast_device_types():
    """Record (in the yielded list) the ``device_type`` of every ``torch.autocast``
    (however it is imported)."""
    return calls_to(
        torch.amp.autocast_mode.autocast,
        "__init__",
        note=lambda self, device_type, *args, **kwargs: device_type,
    )


def grad_norm(params) -> float:
    grads = [p.grad.detach().float().norm() for p in params if p.grad is not None]
    return torch.stack(grads).norm().item() if grads else 0.0


def clip_kind_hint(seen, name: str, max_norm: float) -> str | None:
    """The hint for gradients clipped by another rule than their Euclidean norm: each
    element clamped (``clip_grad_value_``), or the largest one scaled to ``max_norm``."""
    largest, norms = seen["largest"], seen["norms"]
    top = max((v for v, _ in largest), default=0.0)  # the largest element over the steps
    if max(norms, default=0.0) <= 1.01 * max_norm or not 0.99 * max_norm <= top <= 1.01 * max_norm:
        return None
    if max(n for _, n in largest) > 1:  # many elements at the bound: each was clamped
        return (
            f"with {name}, every gradient element at the optimizer's step was at most "
            f"max_norm={max_norm}, several exactly that, but the gradients' norm was up to "
            f"{max(norms):.3g}: each element was clamped (clip_grad_value_), which changes the "
            "gradient's direction and leaves its length unbounded. Clip the total norm: "
            "clip_grad_norm_(net.parameters(), max_norm)"
        )
    return (
        f"with {name}, the gradients' largest element at the optimizer's step was "
        f"max_norm={max_norm}, but their norm was up to {max(norms):.3g}: they were clipped by "
        "the infinity norm (norm_type=float('inf')). Clip by the Euclidean norm, "
        "clip_grad_norm_'s default norm_type=2.0"
    )


def run_answer(answer, device, dtype, scaler_kwargs, max_norm):
    """Run the answer with ``max_norm`` on the problem, watched; return the net, what it
    returned and what it did (see :mod:`d2lgpu.checks.ch04_amp`)."""
    reads = LearnerReads()
    # and "autocast", the device_type of each autocast, which the `with` below sets
    seen = {"log": [], "norms": [], "stale": 0, "out": [], "reads": reads.reads, "calls": reads}
    seen["reads_at_step"] = []  # host reads made so far, at each optimizer step
    seen["tensor_norms"], seen["group_norms"] = [], []  # at each step: the longest, per group
    seen["largest"] = []  # at each step: the largest gradient element, and how many are it
    seen["stepped_as"] = []  # at each step: the parameters' dtypes other than float32
    net, batches = make_problem(device)
    for p in net.parameters():  # gradients the caller left (an evaluation's backward, say)
        p.grad = torch.full_like(p, 0.01)
    # Two parameter groups (the biases apart, as for weight decay): the same SGD steps as one.
    biases = [p for name, p in net.named_parameters() if name.endswith("bias")]
    weights = [p for name, p in net.named_parameters() if not name.endswith("bias")]
    opt = torch.optim.SGD([{"params": weights}, {"params": biases}], lr=0.2)
    log = seen["log"]
    scaler = None if scaler_kwargs is None else LoggingScaler(device.type, log, **scaler_kwargs)
    seen["scaler"] = scaler
    step = opt.step

    def log_step():  # before each optimizer step, after a closure given to it made the gradients
        if scaler is None or not scaler.in_step:
            log.append("opt.step")
        seen["norms"].append(grad_norm(net.parameters()))
        seen["tensor_norms"].append(max(grad_norm([p]) for p in net.parameters()))
        grads = [
            p.grad.detach().float().abs().flatten() for p in net.parameters() if p.grad is not None
        ]
        top = torch.cat(grads).max() if grads else torch.zeros(())
        seen["largest"].append((top.item(), sum(int((g >= 0.999 * top).sum()) for g in grads)))
        seen["group_norms"].append([grad_norm(g["params"]) for g in opt.param_groups])
        seen["reads_at_step"].append(len(reads.reads))
        seen["stepped_as"].append({p.dtype for p in net.parameters()} - {torch.float32})

    # p's gradient is being computed (by backward, or torch.autograd.grad, which leaves .grad
    # alone): it is stale only where backward then adds it to a p.grad that was not empty
    filled: set[int] = set()

    def stale(p):
        (filled.add if p.grad is not None and p.grad.any() else filled.discard)(id(p))

    def added(p):
        seen["stale"] += id(p) in filled
        filled.discard(id(p))

    opt.step = closure_first(step, log_step)
    hooks = [
        m.register_forward_hook(lambda mod, inp, out: seen["out"].append(out.dtype))
        for m in net.modules()
        if isinstance(m, nn.Linear)
    ]
    hooks += [p.register_hook(lambda g, p=p: stale(p)) for p in net.parameters()]
    hooks += [p.register_post_accumulate_grad_hook(added) for p in net.parameters()]
    try:
        # and "scalers", every GradScaler the answer makes (the checker's is made above)
        with (
            autocast_device_types() as seen["autocast"],
            calls_to(torch.amp.GradScaler, "__init__", note=lambda self, *a, **k: self) as (
                seen["scalers"]
            ),
            reads,
            defaults_kept("train_amp"),  # after each run: the next one may put a setting back
        ):
            try:
                losses = answer(net, batches, opt, device.type, dtype, scaler, max_norm=max_norm)
            except TypeError as error:
                if "max_norm" not in str(error):
                    raise
                # Without it: an unanswered stub raises NotImplementedError here (not attempted).
                answer(net, batches, opt, device.type, dtype, scaler)
                raise CheckFailed(
                    "train_amp does not take max_norm: keep the signature of the prompt, "
                    "train_amp(net, batches, opt, device_type, dtype, scaler, max_norm=1.0), "
                    f"and clip to max_norm (the checker passes max_norm={max_norm})"
                ) from None
    finally:
        for h in hooks:
            h.remove()
    return net, losses, seen


def reference_losses(device, max_norm):
    """The float32 loop's losses on the same problem, from the same start."""
    net, batches = make_problem(device)
    opt = torch.optim.SGD(net.parameters(), lr=0.2)
    return train_fp32(net, batches, opt, max_norm=max_norm).float().cpu()
