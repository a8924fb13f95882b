"""Fault injection for training scripts: a rank that dies like a crashed machine, on request.

What it is for: the tests of ``scripts/train_ddp.py`` check that a job whose rank dies ends
fast, and that with ``torchrun --max-restarts`` it resumes from its checkpoint and ends where
an uninterrupted run ends. :func:`maybe_inject_fault`, called after every optimizer step,
makes that happen when the environment asks:

- ``TRAIN_DDP_FAIL_AT_STEP=S``: die after optimizer step ``S``;
- ``TRAIN_DDP_FAIL_RANK=R``: the rank that dies (default: the last rank);
- only in torchrun's first attempt (``TORCHELASTIC_RESTART_COUNT=0``), so that a restarted
  job runs through.

What it is not: a way to test anything but a sudden death (SIGKILL: no cleanup, no
exception). Without ``TRAIN_DDP_FAIL_AT_STEP`` it does nothing.
"""

from __future__ import annotations

import os
import signal

__all__ = ["FAIL_AT_STEP", "FAIL_RANK", "fault_due", "maybe_inject_fault"]

FAIL_AT_STEP = "TRAIN_DDP_FAIL_AT_STEP"
FAIL_RANK = "TRAIN_DDP_FAIL_RANK"


def fault_due(step: int, rank: int, world_size: int, environ=os.environ) -> bool:
    """Whether the environment asks rank ``rank`` to die after optimizer step ``step``."""
    at = environ.get(FAIL_AT_STEP)
    if at is None:
        return False
    victim = int(environ.get(FAIL_RANK, world_size - 1))
    first_attempt = environ.get("TORCHELASTIC_RESTART_COUNT", "0") == "0"
    return int(at) == step and rank == victim and first_attempt


def maybe_inject_fault(step: int, rank: int, world_size: int) -> None:
    """SIGKILL this process when :func:`fault_due` says so, after saying why."""
    if fault_due(step, rank, world_size):
        print(f"[rank {rank}] fault injection: SIGKILL after step {step}", flush=True)
        os.kill(os.getpid(), signal.SIGKILL)
