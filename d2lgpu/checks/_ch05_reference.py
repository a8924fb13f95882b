"""What the ``05.ddp`` checker compares the learner's parameters with: single-process training
on the same global batch (:func:`reference`), and what the usual mistakes leave in rank 0's
parameters, each with its hint (:func:`mistakes`), all computed here in one process.

Each epoch the reference takes the whole data set in the order ``DistributedSampler`` gives
it for that epoch (a permutation seeded with ``seed + epoch``), in global batches of
``batch_size``. ``make_dataset`` and ``make_model`` must match those of the exercise script
(a test checks that they do).

What it is not: the launch (:mod:`._ch05_launch`) or the rules read from what the ranks
recorded (:mod:`._ch05_rules`).
"""

from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

from ._ch05_launch import NPROC

__all__ = ["make_dataset", "make_model", "mistakes", "reference"]


def make_dataset(samples, seed):
    """The exercise script's data set (the same code)."""
    gen = torch.Generator().manual_seed(seed)
    X = torch.randn(samples, 20, generator=gen)
    teacher = torch.randn(20, 4, generator=gen)
    return TensorDataset(X, (X @ teacher).argmax(dim=1))


def make_model(seed):
    """The exercise script's model (the same code), built without disturbing the global RNG."""
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        return nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 4))


def _train(batches_of_epoch, s, *, summed=False, zero_grad=True) -> dict[str, torch.Tensor]:
    """Single-process SGD over the index batches that ``batches_of_epoch(epoch)`` returns.

    ``summed``: each rank's loss summed over its batch, not averaged (DDP then averages
    those sums over the ranks); ``zero_grad=False``: the gradients are never cleared.
    """
    X, y = make_dataset(s["samples"], s["seed"]).tensors
    model = make_model(s["seed"])
    opt = torch.optim.SGD(model.parameters(), lr=s["lr"])
    for epoch in range(s["epochs"]):
        for index in batches_of_epoch(epoch):
            if summed:
                loss = F.cross_entropy(model(X[index]), y[index], reduction="sum") / NPROC
            else:
                loss = F.cross_entropy(model(X[index]), y[index])
            if zero_grad:
                opt.zero_grad()
            loss.backward()
            opt.step()
    return {k: v.detach().clone() for k, v in model.state_dict().items()}


def _permutation(s, epoch):
    # What DistributedSampler(shuffle=True, seed=seed) draws after set_epoch(epoch).
    gen = torch.Generator().manual_seed(s["seed"] + epoch)
    return torch.randperm(s["samples"], generator=gen)


def _chunks(index, size):
    return [index[i : i + size] for i in range(0, len(index), size)]


def _in_order(s):
    return lambda e: _chunks(_permutation(s, e), s["batch_size"])


def reference(s) -> dict[str, torch.Tensor]:
    """Single-process training on the global batch, in DistributedSampler's order per epoch.

    Rank r takes every world_size-th index of the epoch's permutation; step k of
    all ranks together covers positions k*B .. (k+1)*B - 1 of it, and DDP's
    average of the per-rank mean gradients is the mean over those B examples.
    """
    return _train(_in_order(s), s)


def mistakes(s) -> list[tuple[dict, str]]:
    """What the usual mistakes leave in rank 0's parameters, with the hint for each."""
    B, seed = s["batch_size"], s["seed"]

    def unsharded(batch):
        def batches(epoch, _loaders={}):  # noqa: B006 (one loader, shuffling on across epochs)
            if "loader" not in _loaders:
                gen = torch.Generator().manual_seed(seed)
                data = TensorDataset(torch.arange(s["samples"]))
                _loaders["loader"] = DataLoader(data, batch_size=batch, shuffle=True, generator=gen)
            return [index for (index,) in _loaders["loader"]]

        return batches

    unsharded_hint = (
        "each rank went through the whole data set (the parameters equal single-process "
        "training on all of it): give the DataLoader a DistributedSampler(dataset, "
        "shuffle=True, seed=args.seed) instead of shuffle=True, so each rank gets its own "
        "1/world_size of every epoch"
    )
    return [
        (
            _train(lambda e: _chunks(_permutation(s, 0), B), s),
            "every epoch used the same order (that of epoch 0): call sampler.set_epoch(epoch) "
            "at the start of each epoch; DistributedSampler shuffles with seed + epoch",
        ),
        (
            _train(lambda e: _chunks(_permutation(s, max(e - 1, 0)), B), s),
            "each epoch used the order of the epoch before (epochs 0 and 1 both epoch 0's): "
            "sampler.set_epoch(epoch) came after the epoch's batches, or set epoch - 1. Call "
            "it at the start of each epoch, before the loop over the loader: the loader's "
            "iterator draws the order as it starts",
        ),
        (
            _train(lambda e: _chunks(_permutation(s, e + 1), B), s),
            "each epoch used the order of the epoch after it (epoch 0 drew epoch 1's): "
            "sampler.set_epoch was given epoch + 1, or the epochs were counted from 1. Give it "
            "the epoch counted from 0, as range(epochs) counts: DistributedSampler shuffles "
            "with seed + epoch",
        ),
        (
            _train(lambda e: _chunks(_permutation(s, e)[0::NPROC], B // NPROC), s),
            "rank 0's parameters equal training on its own share of the data alone: the ranks "
            "never averaged their gradients, or every rank was given the same share (a "
            "DistributedSampler told rank=0 on each rank) and averaged copies of it. Wrap the "
            "model in DistributedDataParallel and train through the wrapper (net = DDP(model); "
            "opt built on its parameters), and let each rank's sampler take its own rank (the "
            "default, dist.get_rank())",
        ),
        (_train(unsharded(B), s), unsharded_hint),
        (_train(unsharded(B // NPROC), s), unsharded_hint),
        (
            _train(lambda e: _chunks(_permutation(s, e), B * NPROC), s),
            f"each rank used the whole global batch ({B}) per step, so the global batch was "
            f"{B * NPROC}: give each rank batch_size // world_size examples per step",
        ),
        (
            _train(lambda e: _chunks(_permutation({**s, "seed": 0}, e), B), s),
            "the data was shuffled with DistributedSampler's default seed 0, not --seed: "
            "pass seed=args.seed, DistributedSampler(dataset, shuffle=True, seed=args.seed)",
        ),
        (
            _train(lambda e: _chunks(torch.arange(s["samples"]), B), s),
            "the data was never shuffled: DistributedSampler(dataset, shuffle=True, "
            "seed=args.seed) shuffles it, as the single-process script's loader did",
        ),
        (
            _train(lambda e: [c for c in _chunks(_permutation(s, e), B) if len(c) == B], s),
            "each epoch's last, partial batch was dropped (DataLoader(drop_last=True)): keep "
            "it, as the single-process script does; DistributedSampler already gives every "
            "rank the same number of examples, so the ranks stay in step",
        ),
        (
            _train(_in_order(s), {**s, "lr": s["lr"] * NPROC}),
            f"the parameters equal single-process training with the learning rate times {NPROC}, "
            "the world size (lr x world_size, the linear scaling rule): DDP already averages the "
            "gradients over the global batch, so one process's lr is the right one. Keep --lr "
            "as given",
        ),
        (
            _train(_in_order(s), s, summed=True),
            "the parameters equal single-process training on each rank's loss summed over its "
            "batch (F.cross_entropy(..., reduction='sum')), not averaged: every step was "
            "batch_size // world_size times too large. Keep the mean (reduction='mean', the "
            "default), as the single-process script does; DDP then averages the ranks' means",
        ),
        (
            _train(_in_order(s), s, zero_grad=False),
            "the parameters equal single-process training whose gradients are never cleared: "
            "without opt.zero_grad() each backward adds to the gradients of every step before "
            "(DDP averages what a backward adds, and .grad accumulates it). Call "
            "opt.zero_grad() before each loss.backward(), as the single-process script does",
        ),
    ]
