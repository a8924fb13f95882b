"""Pytest configuration shared by the unit tests and nbval.

Notebook cells tagged ``requires-gpu`` or ``requires-2-gpus`` are skipped,
with the reason stated, when this machine lacks that hardware. Such cells are
leaves (nothing later depends on them), so the rest of the notebook still runs.
"""

import pytest

from d2lgpu.devices import mps_available
from d2lgpu.magics import gpus_needed


def _visible_gpus() -> int:
    import torch

    return torch.cuda.device_count() if torch.cuda.is_available() else 0


def pytest_collection_modifyitems(config, items):
    gpus = None
    for item in items:
        cell = getattr(item, "cell", None)  # nbval's notebook-cell items have one
        if cell is None:
            continue
        needed = gpus_needed(cell.get("metadata", {}).get("tags", []))
        if not needed:
            continue
        if gpus is None:
            gpus = _visible_gpus()
        if gpus < needed:
            reason = "requires CUDA" if needed == 1 else f"requires {needed} GPUs"
            mps = "; this Mac's GPU (mps) is not CUDA" if mps_available() else ""
            item.add_marker(pytest.mark.skip(reason=f"{reason} ({gpus} visible{mps})"))
