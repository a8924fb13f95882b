"""Checker of chapter 5: ``05.ddp``, a single-process training script turned into DDP.

The answer is the path of the learner's script (``work/exercises/05_ddp_train.py``, or
``"05_ddp_train.py"`` from a notebook in the same folder). The checker launches
it with ``torchrun`` and 2 processes (:func:`d2lgpu.launcher.launch`: gloo
on the CPU unless every process has a GPU of its own), loads the parameters
rank 0 saved, and compares them with single-process training on the same
global batch, computed here: each epoch the whole data set in the order
``DistributedSampler`` gives it for that epoch (a permutation seeded with
``seed + epoch``), in global batches of ``--batch-size``.

When they differ, the checker compares them with what the usual mistakes
produce (no ``set_epoch``, no ``DistributedSampler``, no DDP wrapper, the
global batch size used per rank) to name the mistake.

A launch that fails without a Python error from the script (a rank killed by
a signal, which a busy machine or a teardown race can cause) is tried once
more; a Python error is reported at once, with where it was raised
(:mod:`._ch05_launch`).

``make_dataset`` and ``make_model`` must match those of the exercise script
(a test checks that they do).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

from ._ch05_launch import NPROC, launch_script
from ._kit import Tolerance, close, first_hint, max_diff
from ._util import CheckFailed, NotAttempted, one_cpu_thread

__all__ = ["SETTINGS", "RTOL", "ATOL", "make_dataset", "make_model", "reference", "check_ddp"]

# The run the checker launches: small enough for ~10 s, long enough that a missing
# set_epoch shows (3 epochs), divisible by the 2 ranks so that no rank gets padding, but not
# by the global batch: each epoch ends in a partial batch (16 of 32), so dropping it shows.
# The seed is not DistributedSampler's default (0), so a sampler without seed=args.seed shows.
SETTINGS = {"epochs": 3, "batch_size": 32, "lr": 0.1, "samples": 240, "seed": 5}
RTOL, ATOL = 1e-4, 1e-5
TOLERANCE = Tolerance(RTOL, ATOL)
EXERCISE_SCRIPT = Path(__file__).resolve().parents[2] / "exercises" / "05_ddp_train.py"


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


def _train(batches_of_epoch, s) -> dict[str, torch.Tensor]:
    """Single-process SGD over the index batches that ``batches_of_epoch(epoch)`` returns."""
    X, y = make_dataset(s["samples"], s["seed"]).tensors
    model = make_model(s["seed"])
    opt = torch.optim.SGD(model.parameters(), lr=s["lr"])
    for epoch in range(s["epochs"]):
        for index in batches_of_epoch(epoch):
            loss = F.cross_entropy(model(X[index]), y[index])
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


def reference(s=SETTINGS) -> dict[str, torch.Tensor]:
    """Single-process training on the global batch, in DistributedSampler's order per epoch.

    Rank r takes every world_size-th index of the epoch's permutation; step k of
    all ranks together covers positions k*B .. (k+1)*B - 1 of it, and DDP's
    average of the per-rank mean gradients is the mean over those B examples.
    """
    return _train(lambda e: _chunks(_permutation(s, e), s["batch_size"]), s)


def _mistakes(s) -> list[tuple[dict, str]]:
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
            _train(lambda e: _chunks(_permutation(s, e)[0::NPROC], B // NPROC), s),
            "rank 0's parameters equal training on its own share of the data alone: the ranks "
            "never averaged their gradients. Wrap the model in DistributedDataParallel and "
            "train through the wrapper (net = DDP(model); opt built on its parameters)",
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
    ]


def _scaled_lr(s) -> tuple[dict, str]:
    """What a learning rate multiplied by the world size leaves, with its hint."""
    return (
        _train(
            lambda e: _chunks(_permutation(s, e), s["batch_size"]), {**s, "lr": s["lr"] * NPROC}
        ),
        f"the parameters equal single-process training with the learning rate times {NPROC}, "
        "the world size (lr x world_size, the linear scaling rule): DDP already averages the "
        "gradients over the global batch, so one process's lr is the right one. Keep --lr as "
        "given",
    )


def _close(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(close(a[k], b[k], TOLERANCE) for k in a)


def _script_path(answer) -> Path:
    if not isinstance(answer, str | Path):
        raise CheckFailed(
            f"pass the path of your script (a str or Path), not a {type(answer).__name__}: "
            "check('05.ddp', '05_ddp_train.py')"
        )
    path = Path(answer)
    if not path.is_file():
        raise CheckFailed(
            f"there is no file {str(path)!r} (looked in {Path.cwd()}): pass the path of your "
            "script; from a notebook in work/exercises/, '05_ddp_train.py' is work/exercises/05_ddp_train.py"
        )
    return path


def _check_own_collectives(records) -> None:
    """The collectives the script called itself (DDP's own are not among them): together
    less than the model's bytes on each rank (a loss all-reduced for printing is fine)."""
    params = sum(p.nbytes for p in make_model(0).parameters())
    for rank, record in enumerate(records):
        calls = [c for c in record.get("calls", []) if c["kind"] != "barrier"]
        sent = sum(c["nbytes"] for c in calls)
        if sent >= params:
            kinds = ", ".join(sorted({c["kind"] for c in calls}))
            raise CheckFailed(
                f"besides DDP's own all-reduces, rank {rank} of the script called {len(calls)} "
                f"collectives itself ({kinds}: {sent} bytes; the model's parameters take "
                f"{params}): an extra collective. DDP's backward already averages the "
                "gradients, so averaging them again by hand (dist.all_reduce on each p.grad) "
                "sends every gradient twice for the same values. Leave it to DDP"
            )


@one_cpu_thread
def check_ddp(answer, passed):
    """Launch the learner's script with torchrun (2 processes) and compare with the reference."""
    path = _script_path(answer)
    if EXERCISE_SCRIPT.is_file() and path.read_text() == EXERCISE_SCRIPT.read_text():
        raise NotAttempted("the script is still the single-process exercise")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "final.pt"
        options = [f"--{k.replace('_', '-')}={v}" for k, v in SETTINGS.items()]
        records = launch_script(path, [*options, f"--out={out}"])
        if not out.is_file():
            raise CheckFailed(
                "the script ran but saved nothing at --out: on rank 0, "
                "torch.save(model.state_dict(), args.out) after training"
            )
        state = torch.load(out, map_location="cpu", weights_only=True)
    want = reference()
    if not isinstance(state, dict) or not state:
        raise CheckFailed("--out does not hold a state_dict: save model.state_dict()")
    if all(k.startswith("module.") for k in state):
        raise CheckFailed(
            "the saved keys start with 'module.': that is the DDP wrapper's state_dict. Save "
            "the plain model's (model.state_dict(), or net.module.state_dict()) so that the "
            "file loads into the model without DDP"
        )
    if state.keys() != want.keys():
        raise CheckFailed(
            f"the saved keys {sorted(state)} are not the model's {sorted(want)}: save "
            "model.state_dict() and keep make_model as it is"
        )
    state = {k: v.float() for k, v in state.items()}
    passed.append(
        f"torchrun ran the script with {NPROC} processes and rank 0 saved the model's "
        "state_dict (keys without 'module.')"
    )
    s = SETTINGS
    if not _close(state, want):
        first_hint((_close(state, params), hint) for params, hint in [*_mistakes(s), _scaled_lr(s)])
        gap = max(max_diff(state[k], want[k]) for k in want)
        raise CheckFailed(
            f"after {s['epochs']} epochs the parameters differ from single-process training "
            f"on the same global batch by up to {gap:.3g} (tolerance: {TOLERANCE}). Check each DDP ingredient: DistributedSampler(dataset, "
            "shuffle=True, seed=args.seed), sampler.set_epoch(epoch) every epoch, a per-rank "
            "batch of batch_size // world_size, the model wrapped in DDP"
        )
    passed.append(
        f"after {s['epochs']} epochs its parameters match single-process training on the same "
        f"global batch of {s['batch_size']}, shuffled per epoch as DistributedSampler does "
        f"({TOLERANCE})"
    )
    _check_own_collectives(records)
    passed.append(
        "the script leaves the gradients' averaging to DDP (no all-reduce of its own carrying "
        "a model's worth of bytes)"
    )
    if any(
        _close(params, want) for params, _ in [*_mistakes(s), _scaled_lr(s)]
    ):  # pragma: no cover
        raise RuntimeError("the checker cannot tell a mistake from the reference")
    passed.append(
        "the comparison can tell: no set_epoch, no DistributedSampler, a sampler without "
        "seed=args.seed, no DDP wrapper, a per-rank batch of the global size, a dropped last "
        "batch or an lr scaled by the world size would each have missed the reference"
    )
