"""Distributed training with ``torchrun``: the backend rule, and the notebook's launcher.

What it is for:

- the one rule for a process group's backend and each rank's device, used by the
  notebooks, by ``scripts/train_ddp.py`` and by the tests: :func:`choose_backend` answers
  ``"nccl"`` when every process on this machine can have a GPU of its own, else ``"gloo"``;
  :func:`rank_device` gives rank ``LOCAL_RANK`` its GPU under nccl, the CPU under gloo;
- :func:`course_script`: the path of one of the course's ``scripts/``, the same from a
  chapter in ``notebooks/`` and from the learner's copy in ``work/chapters/``;
- (starting a script under ``torchrun`` from a notebook is :func:`d2lgpu.launcher.launch`).

What it is not: a wrapper around ``init_process_group``, ``DistributedDataParallel`` or
``DistributedSampler``. Those stay in plain PyTorch in the lesson scripts, where the reader
sees them. Distributed code does not run inside the notebook kernel: torchrun starts it.

Importing this module makes no CUDA call; the rule asks the driver when it is called.
"""

from __future__ import annotations

import os
from pathlib import Path

import torch

from ._validate import check_int
from .devices import num_gpus

__all__ = [
    "BACKENDS",
    "TORCHRUN_VARS",
    "choose_backend",
    "course_script",
    "rank_device",
]

# The course's own folder: this package is installed from it, editable.
SCRIPTS = Path(__file__).resolve().parent.parent / "scripts"


def course_script(name: str) -> Path:
    """The course's ``scripts/<name>``, wherever the notebook that asks runs from.

    A chapter runs from ``notebooks/`` (nbval) or from the learner's copy in
    ``work/chapters/``, so a path relative to the notebook would differ.
    """
    path = SCRIPTS / name
    if not path.is_file():
        known = sorted(p.name for p in SCRIPTS.glob("*.py"))
        raise FileNotFoundError(f"name={name!r} is not one of the course's scripts: {known}")
    return path


# The variables torchrun sets in every worker.
TORCHRUN_VARS = (
    "RANK",
    "WORLD_SIZE",
    "LOCAL_RANK",
    "LOCAL_WORLD_SIZE",
    "MASTER_ADDR",
    "MASTER_PORT",
)
# What choose_backend() may be asked for: "auto" lets the rule decide.
BACKENDS = ("auto", "nccl", "gloo")


def choose_backend(nproc_per_node: int | None = None, requested: str = "auto") -> str:
    """Return ``"nccl"`` when every local process can have a GPU of its own, else ``"gloo"``.

    ``nproc_per_node`` is the number of processes on this machine; by default torchrun's
    ``LOCAL_WORLD_SIZE``, or 1 outside torchrun. NCCL needs one GPU per process: two ranks
    on one GPU make NCCL fail or hang, so with fewer GPUs than processes the answer is gloo,
    which runs on the CPU. ``requested="gloo"`` always gets gloo; ``requested="nccl"`` gets
    nccl only where the rule allows it (the caller can compare and say so).

    Every process of a job must get the same answer: on several machines, give each the
    same number of GPUs per process.
    """
    if requested not in BACKENDS:
        raise ValueError(f"requested must be one of {BACKENDS}, got {requested!r}")
    if nproc_per_node is None:
        nproc_per_node = int(os.environ.get("LOCAL_WORLD_SIZE", "1"))
    check_int("nproc_per_node", nproc_per_node, minimum=1)
    if requested == "gloo":
        return "gloo"
    return "nccl" if num_gpus() >= nproc_per_node else "gloo"


def rank_device(backend: str, local_rank: int) -> torch.device:
    """The device of the process ``local_rank`` on its machine: ``cuda:LOCAL_RANK`` under
    nccl, the CPU under gloo (gloo's ranks may share one GPU or have none, so none uses it)."""
    if backend not in ("nccl", "gloo"):
        raise ValueError(f"backend must be 'nccl' or 'gloo', got {backend!r}")
    check_int("local_rank", local_rank, minimum=0)
    return torch.device("cuda", local_rank) if backend == "nccl" else torch.device("cpu")
