"""Checkpoints that a crash cannot damage unnoticed, and the random state that goes with them.

What it is for: :func:`save_checkpoint` writes ``ckpt-epochNNNN.pt``, then its checksum
``ckpt-epochNNNN.pt.sha256`` (``sha256sum -c`` format), each to a temporary file that is
renamed into place, so that a crash never leaves half a file under the real name; the
checksum is written last, so a checkpoint without one is incomplete. Only the newest
``keep`` checkpoints stay. :func:`read_checkpoint` checks the sha256 before loading (a
flipped byte would otherwise load silently as wrong weights); :func:`load_newest_checkpoint`
falls back to the one before a damaged checkpoint. :func:`rng_states` and
:func:`set_rng_states` save and restore the random generators, so that a resumed run draws
what the uninterrupted run would have drawn.

What it is not: a distributed checkpoint. One process (rank 0) writes, every rank reads;
the directory must be one that all of them see.
"""

from __future__ import annotations

import hashlib
import io
import os
import random
from pathlib import Path

import numpy as np
import torch

from ._validate import check_int

__all__ = [
    "CheckpointError",
    "list_checkpoints",
    "load_newest_checkpoint",
    "read_checkpoint",
    "rng_states",
    "save_checkpoint",
    "set_rng_states",
    "write_atomic",
]

PREFIX = "ckpt-epoch"


class CheckpointError(Exception):
    """A checkpoint that is missing, incomplete or damaged."""


def write_atomic(path, data: bytes) -> Path:
    """Write ``data`` to ``path`` so that readers see the old file or the whole new one."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.tmp{os.getpid()}")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())  # on disk before the rename makes it visible
    os.replace(tmp, path)  # atomic on POSIX
    return path


def _sidecar(path: Path) -> Path:
    return path.with_name(path.name + ".sha256")


def list_checkpoints(ckpt_dir) -> list[Path]:
    """Checkpoint files in ``ckpt_dir``, newest (highest epoch) first."""
    paths = Path(ckpt_dir).glob(f"{PREFIX}*.pt")
    return sorted(paths, key=lambda p: int(p.stem.removeprefix(PREFIX)), reverse=True)


def save_checkpoint(ckpt_dir, epoch: int, state, keep: int = 2) -> Path:
    """Save ``state`` as the checkpoint of ``epoch``; keep the newest ``keep`` checkpoints
    (the newest, and the one before in case the newest is damaged)."""
    check_int("epoch", epoch, minimum=0)
    check_int("keep", keep, minimum=1)
    buf = io.BytesIO()
    torch.save(state, buf)
    data = buf.getvalue()
    path = Path(ckpt_dir) / f"{PREFIX}{epoch:04d}.pt"
    write_atomic(path, data)
    write_atomic(_sidecar(path), f"{hashlib.sha256(data).hexdigest()}  {path.name}\n".encode())
    for old in list_checkpoints(ckpt_dir)[keep:]:
        _sidecar(old).unlink(missing_ok=True)
        old.unlink(missing_ok=True)
    return path


def read_checkpoint(path):
    """Load one checkpoint after checking its sha256; :class:`CheckpointError` if anything
    is off. Loads on the CPU, tensors and plain containers only (``weights_only``)."""
    path = Path(path)
    try:
        expected = _sidecar(path).read_text().split()[0]
    except (OSError, IndexError):
        raise CheckpointError(f"{path.name}: no checksum file, the save did not finish") from None
    data = path.read_bytes()
    actual = hashlib.sha256(data).hexdigest()
    if actual != expected:
        raise CheckpointError(
            f"{path.name}: sha256 mismatch ({len(data)} bytes, sha256 {actual[:12]}..., "
            f"expected {expected[:12]}...): the file is truncated or corrupted"
        )
    try:
        return torch.load(io.BytesIO(data), map_location="cpu", weights_only=True)
    except Exception as e:
        raise CheckpointError(f"{path.name}: intact but cannot be loaded: {e}") from e


def load_newest_checkpoint(ckpt_dir, log=print):
    """Return ``(path, state)`` of the newest checkpoint that passes its checksum, warning
    through ``log`` about each newer one that does not; ``(None, None)`` when there is no
    checkpoint at all; :class:`CheckpointError` when none is intact."""
    problems = []
    for path in list_checkpoints(ckpt_dir):
        try:
            return path, read_checkpoint(path)
        except CheckpointError as e:
            problems.append(str(e))
            log(f"warning: skipping damaged checkpoint {e}; trying the one before")
    if problems:
        raise CheckpointError(f"no intact checkpoint in {ckpt_dir}: " + "; ".join(problems))
    return None, None


def rng_states(device=None) -> dict:
    """The states of torch's, Python's and NumPy's global generators, and of ``device``'s
    generator when it is a GPU. The CPU's run never touches CUDA: several processes that
    share one GPU, or train on the CPU beside it, do not each open a CUDA context on it."""
    device = torch.device("cpu" if device is None else device)
    np_state = np.random.get_state(legacy=True)
    assert isinstance(np_state, tuple)  # legacy=True: the (name, keys, pos, ...) tuple
    return {
        "torch": torch.get_rng_state(),
        "cuda": [torch.cuda.get_rng_state(device)] if device.type == "cuda" else [],
        "python": random.getstate(),
        # numpy's state holds an ndarray, which weights_only refuses: store it as a list.
        "numpy": (np_state[0], np_state[1].tolist(), *np_state[2:]),
    }


def set_rng_states(states: dict, device=None) -> None:
    """Restore what :func:`rng_states` saved; the GPU's state only on a GPU ``device``."""
    device = torch.device("cpu" if device is None else device)
    torch.set_rng_state(states["torch"])
    if states["cuda"] and device.type == "cuda":
        torch.cuda.set_rng_state(states["cuda"][0], device)
    random.setstate(states["python"])
    kind, keys, *rest = states["numpy"]
    np.random.set_state((kind, np.array(keys, dtype=np.uint32), *rest))
