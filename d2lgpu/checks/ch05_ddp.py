"""Checker of chapter 5: ``05.ddp``, a single-process training script turned into DDP.

The answer is the path of the learner's script (``work/exercises/05_ddp_train.py``, or
``"05_ddp_train.py"`` from a notebook in the same folder). The checker launches
it with ``torchrun`` and 2 processes (:func:`d2lgpu.launcher.launch`: gloo
on the CPU unless every process has a GPU of its own), loads the parameters
rank 0 saved, and compares them with single-process training on the same
global batch (:mod:`._ch05_reference`): each epoch the whole data set in the order
``DistributedSampler`` gives it for that epoch (a permutation seeded with
``seed + epoch``), in global batches of ``--batch-size``.

When they differ, the checker compares them with what the usual mistakes
produce (no ``set_epoch``, no ``DistributedSampler``, no DDP wrapper, the
global batch size used per rank, a summed loss, gradients never cleared...) to name
the mistake. When they match, it reads what each rank recorded (:mod:`._ch05_rules`):
no collective of its own carrying a model's worth of bytes, rank 0 alone saving, a
barrier and ``destroy_process_group`` on every rank, a backend that fits the GPUs (seen
only on a machine with a GPU); then it launches the script again with 4 processes (the
same global batch, so the same reference), where a world size written in as 2 shows.

A launch that fails without a Python error from the script (a rank killed by
a signal, which a busy machine or a teardown race can cause) is tried once
more; a Python error is reported at once, with where it was raised
(:mod:`._ch05_launch`).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import torch

from ._ch05_launch import NPROC, launch_script
from ._ch05_reference import make_dataset, make_model, mistakes, reference
from ._ch05_rules import (
    check_backend,
    check_leaving,
    check_own_collectives,
    check_saves,
    check_shares,
    drift_hint,
)
from ._kit import Tolerance, close, first_hint, max_diff
from ._util import CheckFailed, NotAttempted, one_cpu_thread

__all__ = [
    "ATOL",
    "MORE_NPROC",
    "RTOL",
    "SETTINGS",
    "check_ddp",
    "make_dataset",
    "make_model",
    "mistakes",
    "reference",
]

# The run the checker launches: small enough for ~10 s, long enough that a missing
# set_epoch shows (3 epochs), divisible by the 2 ranks so that no rank gets padding, but not
# by the global batch: each epoch ends in a partial batch (16 of 32), so dropping it shows.
# The seed is not DistributedSampler's default (0), so a sampler without seed=args.seed shows.
SETTINGS = {"epochs": 3, "batch_size": 32, "lr": 0.1, "samples": 240, "seed": 5}
RTOL, ATOL = 1e-4, 1e-5
TOLERANCE = Tolerance(RTOL, ATOL)
# The second run: 4 processes keep the global batch of 32 (8 each) and the reference, and the
# epoch's end (60 examples a rank: 7 batches of 8, then 4).
MORE_NPROC = 4
EXERCISE_SCRIPT = Path(__file__).resolve().parents[2] / "exercises" / "05_ddp_train.py"


def _close(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(close(a[k], b[k], TOLERANCE) for k in a)


def _script_path(answer) -> Path:
    if not isinstance(answer, str | Path):
        raise CheckFailed(
            "pass the path of your script (a str or Path), not an object of type "
            f"{type(answer).__name__}: "
            "check('05.ddp', '05_ddp_train.py')"
        )
    path = Path(answer)
    if not path.is_file():
        raise CheckFailed(
            f"there is no file {str(path)!r} (looked in {Path.cwd()}): pass the path of your "
            "script; from a notebook in work/exercises/, '05_ddp_train.py' is work/exercises/05_ddp_train.py"
        )
    return path


def _trained(path: Path, nproc: int) -> tuple[dict, list[dict]]:
    """Launch the script with ``nproc`` processes: what rank 0 saved, what each rank recorded."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "final.pt"
        torch.save(make_model(SETTINGS["seed"] + 1).state_dict(), out)  # an older run's file
        older = out.read_bytes()
        options = [f"--{k.replace('_', '-')}={v}" for k, v in SETTINGS.items()]
        records = launch_script(path, [*options, f"--out={out}"], nproc=nproc)
        if not out.is_file() or out.read_bytes() == older:
            raise CheckFailed(
                "the script ran but saved nothing at --out (an older run's file there was "
                "left as it was): on rank 0, "
                "torch.save(model.state_dict(), args.out) after training"
            )
        check_saves(records, out)
        state = torch.load(out, map_location="cpu", weights_only=True)
    if not isinstance(state, dict) or not state:
        raise CheckFailed("--out does not hold a state_dict: save model.state_dict()")
    if all(k.startswith("module.") for k in state):
        raise CheckFailed(
            "the saved keys start with 'module.': that is the DDP wrapper's state_dict. Save "
            "the plain model's (model.state_dict(), or net.module.state_dict()) so that the "
            "file loads into the model without DDP"
        )
    want = reference(SETTINGS)
    if state.keys() != want.keys():
        raise CheckFailed(
            f"the saved keys {sorted(state)} are not the model's {sorted(want)}: save "
            "model.state_dict() and keep make_model as it is"
        )
    state = {k: v.float() for k, v in state.items()}
    if not _close(state, want) and (hint := drift_hint(records, out)):
        raise CheckFailed(hint)
    return state, records


def _gap(state: dict, want: dict) -> str:
    return f"{max(max_diff(state[k], want[k]) for k in want):.3g} (tolerance: {TOLERANCE})"


def _check_more_ranks(path: Path, want: dict) -> None:
    """The same run with ``MORE_NPROC`` processes (the same global batch, so the same
    reference) must match too: a world size written in as 2 shows only then."""
    state, _ = _trained(path, MORE_NPROC)
    if _close(state, want):
        return
    s, n = SETTINGS, MORE_NPROC
    as_if_two = reference({**s, "batch_size": s["batch_size"] // NPROC * n})
    first_hint(
        [
            (
                _close(state, as_if_two),
                f"with {NPROC} processes the parameters matched, but with {n} they equal "
                f"training on a global batch of {s['batch_size'] // NPROC * n}: each rank took "
                f"batch_size // {NPROC} examples whatever the number of processes (the world "
                f"size written in as {NPROC}). Take world_size from the process group "
                "(dist.get_world_size()) and give each rank batch_size // world_size",
            )
        ]
    )
    raise CheckFailed(
        f"with {NPROC} processes the parameters matched single-process training, but with "
        f"{n} they differ from it by up to {_gap(state, want)}: something in the script holds "
        f"only for {NPROC} processes (a world size or rank written in?). Take rank and "
        "world_size from the process group (dist.get_rank(), dist.get_world_size())"
    )


@one_cpu_thread
def check_ddp(answer, passed):
    """Launch the learner's script with torchrun (2, then 4 processes) and compare with the
    reference; then read what its ranks recorded."""
    path = _script_path(answer)
    if EXERCISE_SCRIPT.is_file() and path.read_text() == EXERCISE_SCRIPT.read_text():
        raise NotAttempted("the script is still the single-process exercise")
    s = SETTINGS
    state, records = _trained(path, NPROC)
    want = reference(s)
    passed.append(
        f"torchrun ran the script with {NPROC} processes and rank 0 alone saved the model's "
        "state_dict (keys without 'module.')"
    )
    wrong = mistakes(s)
    if not _close(state, want):
        first_hint((_close(state, params), hint) for params, hint in wrong)
        raise CheckFailed(
            f"after {s['epochs']} epochs the parameters differ from single-process training "
            f"on the same global batch by up to {_gap(state, want)}. Check each DDP "
            "ingredient: DistributedSampler(dataset, shuffle=True, seed=args.seed), "
            "sampler.set_epoch(epoch) every epoch, a per-rank batch of batch_size // "
            "world_size, the model wrapped in DDP, the mean loss, opt.zero_grad() every step"
        )
    passed.append(
        f"after {s['epochs']} epochs its parameters match single-process training on the same "
        f"global batch of {s['batch_size']}, shuffled per epoch as DistributedSampler does "
        f"({TOLERANCE})"
    )
    check_own_collectives(records, sum(p.nbytes for p in make_model(0).parameters()))
    check_shares(records, s["samples"] * s["epochs"])
    passed.append(
        "the script leaves the gradients' averaging to DDP (no collective of its own carrying "
        "a model's worth of bytes), and each rank's model runs only its share of the examples"
    )
    check_leaving(records)
    passed.append(
        "every rank met the others at dist.barrier() after rank 0's save and left with "
        "dist.destroy_process_group()"
    )
    check_backend(records)
    passed.append(
        "the ranks' backend fits the GPUs they see (gloo on the CPU with fewer GPUs than "
        "processes, nccl with one each)"
    )
    _check_more_ranks(path, want)
    passed.append(
        f"with {MORE_NPROC} processes the parameters match as well (nothing written in for {NPROC})"
    )
    if any(_close(params, want) for params, _ in wrong):  # pragma: no cover
        raise RuntimeError("the checker cannot tell a mistake from the reference")
    passed.append(
        "the comparison can tell: no set_epoch, no DistributedSampler, a sampler without "
        "seed=args.seed, no DDP wrapper, a per-rank batch of the global size, a dropped last "
        "batch, an lr scaled by the world size, a loss summed per rank or gradients never "
        "cleared would each have missed the reference"
    )
