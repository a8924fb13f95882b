"""A classification training loop that is honest about the GPU.

What it is for: :func:`train` (epochs of SGD or Adam with cross-entropy,
optional mixed precision, a progress bar, seconds per epoch measured with the
synchronizing :class:`~d2lgpu.timing.Timer`) and :func:`evaluate_accuracy`,
both for any ``(X, y)`` iterable such as the loaders of :mod:`d2lgpu.data`.
They return plain numbers in a :class:`History` that :mod:`d2lgpu.plotting`
can draw.

The loop keeps the CPU out of the GPU's way: losses and correct counts are
summed on the device and read once per epoch. Each read is a CPU-GPU sync
point, marked as such in the code.

What it is not: a trainer framework. No callbacks, checkpoints, schedulers or
distributed training; the distributed chapter writes its loop in plain
PyTorch so the lesson stays visible.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import torch
from torch import nn
from tqdm.auto import tqdm

from ._validate import check_int, check_positive
from .timing import Timer

__all__ = ["History", "evaluate_accuracy", "train"]

_AMP_DTYPES = (None, torch.float16, torch.bfloat16)
_OPTIMIZERS = ("sgd", "adam")


@dataclass
class History:
    """What :func:`train` measured, one entry per epoch.

    ``test_acc`` stays empty when ``train`` had no ``test_iter``.
    ``epoch_seconds`` is the training time of each epoch (evaluation excluded),
    measured with a synchronizing timer. ``device`` is the ``device`` that
    ``train`` was given, as a string: ``"cuda"`` stays ``"cuda"`` (PyTorch's
    current GPU), ``"cuda:1"`` stays ``"cuda:1"``. ``amp_dtype`` is ``"none"``,
    ``"float16"`` or ``"bfloat16"``.
    """

    train_loss: list[float] = field(default_factory=list)
    train_acc: list[float] = field(default_factory=list)
    test_acc: list[float] = field(default_factory=list)
    epoch_seconds: list[float] = field(default_factory=list)
    device: str = ""
    amp_dtype: str = "none"

    def summary(self) -> str:
        """One line: the last epoch's numbers and the time per epoch.

        With more than one epoch the time is the mean over epochs 2 onwards,
        because the first also pays one-off costs (CUDA context, kernel
        selection, allocator warm-up); the first epoch's time is given beside it.
        """
        n = len(self.train_loss)
        if n == 0:
            return f"no epochs recorded (device {self.device}, amp {self.amp_dtype})"
        parts = [f"loss {self.train_loss[-1]:.3f}", f"train acc {self.train_acc[-1]:.3f}"]
        if self.test_acc:
            parts.append(f"test acc {self.test_acc[-1]:.3f}")
        secs = self.epoch_seconds
        if n > 1:
            later = sum(secs[1:]) / (n - 1)
            parts.append(f"{later:.2f} s/epoch (first epoch {secs[0]:.2f} s)")
        else:
            parts.append(f"{secs[0]:.2f} s/epoch")
        epochs = "epoch" if n == 1 else "epochs"
        return f"{n} {epochs} on {self.device}, amp {self.amp_dtype}: " + ", ".join(parts)


def _check_device(device) -> torch.device:
    if not isinstance(device, str | torch.device):
        raise TypeError(f"device must be a str or torch.device, got {type(device).__name__}")
    return torch.device(device)


def _check_amp_dtype(amp_dtype):
    if not any(amp_dtype is d for d in _AMP_DTYPES):
        raise ValueError(
            f"amp_dtype must be None, torch.float16 or torch.bfloat16, got {amp_dtype!r}"
        )


def _autocast(device: torch.device, amp_dtype):
    # A no-op context when amp_dtype is None, so the loop has one code path.
    return torch.amp.autocast(device.type, dtype=amp_dtype, enabled=amp_dtype is not None)


def evaluate_accuracy(net, data_iter, device, *, amp_dtype=None) -> float:
    """Fraction of examples in ``data_iter`` that ``net`` classifies correctly.

    ``net`` must already be on ``device``; batches are moved there. Runs in
    eval mode under ``torch.inference_mode()`` (and autocast if ``amp_dtype``
    is set), then restores the mode ``net`` was in.
    """
    if not isinstance(net, nn.Module):
        raise TypeError(f"net must be a torch.nn.Module, got {type(net).__name__}")
    device = _check_device(device)
    _check_amp_dtype(amp_dtype)
    was_training = net.training
    net.eval()
    total = 0
    try:
        with torch.inference_mode(), _autocast(device, amp_dtype):
            correct = torch.zeros((), dtype=torch.int64, device=device)
            for X, y in data_iter:
                X, y = X.to(device, non_blocking=True), y.to(device, non_blocking=True)
                correct += (net(X).argmax(dim=1) == y).sum()  # stays on the device: no sync
                total += y.shape[0]  # shapes are known on the CPU: no sync
    finally:
        net.train(was_training)
    if total == 0:
        raise ValueError("data_iter yielded no batches")
    # The one CPU-GPU sync point: .item() waits for every queued batch to finish.
    return correct.item() / total


def _train_epoch(net, batches, loss_fn, opt, scaler, device, amp_dtype, bar):
    """One pass over ``batches``.

    Returns the summed loss and the correct count, both still on the device,
    and the number of examples seen.
    """
    net.train()
    # Running sums live on the device. Calling loss.item() every step would make
    # the CPU wait for the GPU after each batch, leaving the GPU's queue empty.
    loss_sum = torch.zeros((), device=device)
    correct = torch.zeros((), dtype=torch.int64, device=device)
    seen = 0
    for X, y in batches:
        X, y = X.to(device, non_blocking=True), y.to(device, non_blocking=True)
        with _autocast(device, amp_dtype):
            y_hat = net(X)
            loss = loss_fn(y_hat, y)
        opt.zero_grad(set_to_none=True)
        scaler.scale(loss).backward()  # scale() and step() are pass-throughs when disabled
        scaler.step(opt)
        scaler.update()
        loss_sum += loss.detach().float() * y.shape[0]
        correct += (y_hat.argmax(dim=1) == y).sum()
        seen += y.shape[0]  # shapes are known on the CPU: no sync
        bar.update()
    return loss_sum, correct, seen


def _batches_per_epoch(train_iter, max_batches):
    """What the progress bar counts to: ``None`` for an iterable without ``len()``."""
    try:
        return len(train_iter) if max_batches is None else min(len(train_iter), max_batches)
    except TypeError:  # an iterable without len(): the bar just counts
        return max_batches


def _record_epoch(history: History, loss_sum, correct, seen: int) -> dict[str, float]:
    """Append the epoch's mean loss and accuracy to ``history``; return them for the bar."""
    if seen == 0:
        raise ValueError("train_iter yielded no batches")
    # Once per epoch: .item() is a CPU-GPU sync point (cheap here, the timer synced).
    history.train_loss.append(loss_sum.item() / seen)
    history.train_acc.append(correct.item() / seen)
    return {"loss": history.train_loss[-1], "train_acc": history.train_acc[-1]}


def _check_train_args(net, num_epochs, lr, device, optimizer, amp_dtype, max_batches):
    """Check :func:`train`'s arguments, naming the one that is wrong; return the device."""
    if not isinstance(net, nn.Module):
        raise TypeError(f"net must be a torch.nn.Module, got {type(net).__name__}")
    check_int("num_epochs", num_epochs, minimum=1)
    check_positive("lr", lr)
    if optimizer not in _OPTIMIZERS:
        raise ValueError(f"optimizer must be one of {_OPTIMIZERS}, got {optimizer!r}")
    _check_amp_dtype(amp_dtype)
    check_int("max_batches", max_batches, minimum=1, allow_none=True)
    return _check_device(device)


def train(
    net,
    train_iter,
    test_iter=None,
    *,
    num_epochs,
    lr,
    device,
    optimizer="sgd",
    amp_dtype=None,
    progress=True,
    max_batches=None,
) -> History:
    """Train ``net`` with cross-entropy on ``device`` and return a :class:`History`.

    ``train_iter`` (and ``test_iter``) must be re-iterable, like a ``DataLoader``
    or a list: each epoch makes one pass. ``net`` is moved to ``device`` and
    each batch with ``non_blocking=True``.
    ``optimizer`` is ``"sgd"`` (plain SGD, as in d2l) or ``"adam"``, with
    learning rate ``lr``. ``max_batches`` caps the batches per epoch (fast
    CPU runs). ``progress=False`` hides the tqdm bar.

    Mixed precision: ``amp_dtype=torch.bfloat16`` runs the forward pass under
    ``torch.amp.autocast`` with no loss scaling (bfloat16 has float32's range).
    ``amp_dtype=torch.float16`` adds a ``torch.amp.GradScaler``, enabled on
    CUDA only: on other devices float16 autocast runs *without* loss scaling,
    which is fine for checking that code runs but may underflow small
    gradients and is slow on most CPUs; use bfloat16 there.

    After each epoch the test accuracy (if ``test_iter`` is given) is measured
    with :func:`evaluate_accuracy`; that time is not in ``epoch_seconds``.
    """
    device = _check_train_args(net, num_epochs, lr, device, optimizer, amp_dtype, max_batches)
    net.to(device)
    opt = (torch.optim.SGD if optimizer == "sgd" else torch.optim.Adam)(net.parameters(), lr=lr)
    loss_fn = nn.CrossEntropyLoss()
    # fp16 gradients can underflow: loss scaling, where it is supported (CUDA).
    use_scaler = amp_dtype is torch.float16 and device.type == "cuda"
    scaler = torch.amp.GradScaler(device.type, enabled=use_scaler)
    history = History(device=str(device), amp_dtype=str(amp_dtype).removeprefix("torch.").lower())
    timer = Timer(device)
    total = _batches_per_epoch(train_iter, max_batches)
    for epoch in range(num_epochs):
        # The bar is updated by hand: one that wraps the loader closes itself at the
        # end of the loop, before the epoch's numbers are known to show in it.
        desc = f"epoch {epoch + 1}/{num_epochs}"
        with tqdm(total=total, desc=desc, disable=not progress) as bar:
            timer.start()
            batches = itertools.islice(train_iter, max_batches)
            loss_sum, correct, seen = _train_epoch(
                net, batches, loss_fn, opt, scaler, device, amp_dtype, bar
            )
            history.epoch_seconds.append(timer.stop())  # stop() synchronizes the device first
            metrics = _record_epoch(history, loss_sum, correct, seen)
            if test_iter is not None:
                acc = evaluate_accuracy(net, test_iter, device, amp_dtype=amp_dtype)
                history.test_acc.append(acc)
                metrics["test_acc"] = acc
            bar.set_postfix({k: f"{v:.3f}" for k, v in metrics.items()})
    return history
