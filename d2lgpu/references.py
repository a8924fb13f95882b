"""GPU reference outputs: what a GPU-only notebook cell printed on a real GPU.

Most learners have no GPU, so a cell that starts with ``%%requires_gpu`` skips
on their machine. It then shows what it printed on a real GPU instead, in a
bordered block (:func:`reference_bundle`: HTML for JupyterLab, the same in
plain text for terminals and text-only readers) captioned with where it came from::

    Recorded on NVIDIA H200 with torch 2.11.0+cu130, 2026-11-28 (this machine has torch 2.14.1)
        <what the cell printed there>

One block is shown, the newest recording; other GPUs' blocks are collapsed below it
(``d2lgpu._reference_blocks``, which this module re-exports).

A reference belongs to one version of a cell's code and of what it reads from
the cells above it: its key (:func:`cell_key`, ``d2lgpu._cell_keys``, re-exported
here) is the SHA-256 of the cell's body and of the earlier statements it depends on
(:func:`dependencies`). A cell whose code, or whose sizes above, changed since its
GPU run finds no reference and says so, rather than showing a stale one.

In a notebook, the cells above are those the kernel ran before this one
(:mod:`d2lgpu.magics` keeps the list), in the order it ran them: top to
bottom, the order in which a GPU ran them and ``make outputs`` runs them.

In an exercise, the learner's own answer is code no GPU has run: a GPU cell that reads
it finds no reference of its own, and shows the worked solution's instead
(:func:`solution_reference`: the reference of the cell with the same code in
``solutions/``, found under the key that cell has there now).

This module is the storage: one folder per GPU model, one file per notebook
(``make gpu-check`` writes them; see ``docs/gpu-run.md``)::

    docs/results/<device>/cells/<folder>_<notebook>.json
    {"notebook": "notebooks/04_amp.ipynb",
     "cells": {"<nbformat cell id>": {"sha256": <key>, "body_sha256": ..., "reads": [...],
                                      "output": ..., "seconds": ...,
                                      "device": ..., "torch": ..., "cuda": ...,
                                      "date": ..., "origin": ...}}}

``reads`` lists the earlier statements the key covers, for the reader of the file.

What it is not: a test of the GPU outputs. A CPU run of a skipped cell prints
its reference block (or the no-reference line); ``make outputs`` stores that,
and nbval compares it on a CPU, so a reference that changed, or a cell whose
key no longer finds one, fails the suite until ``make outputs`` is run again.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable
from pathlib import Path

from ._cell_keys import body_sha256, cell_key, dependencies, earlier_sources
from ._cell_statements import MAGIC, cell_body
from ._reference_blocks import (
    NO_REFERENCE,
    OTHER_CELLS_ABOVE,
    OTHER_GPUS,
    SOLUTION_LABEL,
    caption,
    format_reference,
    reference_bundle,
    torch_release,
)

__all__ = [
    "COURSE_ROOT",
    "MAGIC",
    "NO_REFERENCE",
    "OTHER_CELLS_ABOVE",
    "OTHER_GPUS",
    "PROVENANCE_KEYS",
    "RESULTS_DIR",
    "RESULTS_ENV_VAR",
    "SOLUTION_LABEL",
    "body_has_reference",
    "body_sha256",
    "caption",
    "cell_body",
    "cell_key",
    "dependencies",
    "device_slug",
    "earlier_sources",
    "find_reference",
    "format_reference",
    "load_references",
    "outputs_to_text",
    "record_reference",
    "reference_bundle",
    "reference_file",
    "results_root",
    "solution_reference",
    "torch_release",
]

# The course's checkout: its notebooks, and docs/results next to the package (absent from
# a wheel).
COURSE_ROOT = Path(__file__).resolve().parents[1]
RESULTS_DIR = COURSE_ROOT / "docs" / "results"
# Read the references from another folder instead (a test's, or a run not yet copied in).
RESULTS_ENV_VAR = "D2LGPU_RESULTS_DIR"
# What every reference records about where it came from.
PROVENANCE_KEYS = ("device", "torch", "cuda", "date", "origin")


def device_slug(name: str) -> str:
    """A folder name for a GPU model: ``"NVIDIA H100 80GB HBM3"`` -> ``"NVIDIA-H100-80GB-HBM3"``."""
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"name must be a non-empty device name, got {name!r}")
    return re.sub(r"[^A-Za-z0-9.]+", "-", name.strip()).strip("-")


def reference_file(results_dir: Path, device_name: str, notebook: str) -> Path:
    """Where the references of ``notebook`` (a path like ``notebooks/04_amp.ipynb``) go."""
    parts = Path(notebook).with_suffix("").parts[-2:]
    return Path(results_dir) / device_slug(device_name) / "cells" / ("_".join(parts) + ".json")


def outputs_to_text(outputs: list) -> str:
    """What a reader saw: streams, plain-text results and errors; figures as a placeholder."""
    pieces = []
    for out in outputs:
        kind = out.get("output_type")
        if kind == "stream":
            text = out.get("text", "")
            pieces.append(text if isinstance(text, str) else "".join(text))
        elif kind in ("execute_result", "display_data"):
            data = out.get("data", {})
            if "image/png" in data or "image/svg+xml" in data:
                pieces.append("[a figure]\n")
            elif "text/plain" in data:
                text = data["text/plain"]
                pieces.append((text if isinstance(text, str) else "".join(text)) + "\n")
        elif kind == "error":
            pieces.append(f"{out.get('ename')}: {out.get('evalue')}\n")
    return "".join(pieces)


def record_reference(
    results_dir,
    notebook: str,
    cell_id: str,
    source: str,
    output: str,
    provenance: dict,
    *,
    earlier: Iterable[str] = (),
    **extra,
) -> Path:
    """Store what cell ``cell_id`` of ``notebook`` printed, under its :func:`cell_key`.

    ``earlier``: the sources of the code cells run before it, oldest first.
    """
    missing = [k for k in PROVENANCE_KEYS if not provenance.get(k)]
    if missing:
        raise ValueError(f"provenance must give {', '.join(PROVENANCE_KEYS)}; missing {missing}")
    earlier = list(earlier)
    path = reference_file(results_dir, provenance["device"], notebook)
    data: dict = (
        json.loads(path.read_text()) if path.exists() else {"notebook": notebook, "cells": {}}
    )
    data["cells"][cell_id] = {
        "sha256": cell_key(source, earlier),
        "body_sha256": body_sha256(cell_body(source)),
        "reads": dependencies(source, earlier),
        "output": output,
        **{k: provenance[k] for k in PROVENANCE_KEYS},
        **extra,
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    return path


def results_root() -> Path:
    """Where references are read from: ``$D2LGPU_RESULTS_DIR`` if set, else :data:`RESULTS_DIR`."""
    return Path(os.environ.get(RESULTS_ENV_VAR) or RESULTS_DIR)


def load_references(results_dir=None) -> dict[str, list[dict]]:
    """Every stored reference, by key: ``{sha256: [entry, ...]}`` (one per device)."""
    root = Path(results_dir) if results_dir is not None else results_root()
    found: dict[str, list[dict]] = {}
    for path in sorted(root.glob("*/cells/*.json")):
        data = json.loads(path.read_text())
        for cell_id, entry in data.get("cells", {}).items():
            entry = dict(entry, cell_id=cell_id, notebook=data.get("notebook", path.stem))
            found.setdefault(entry["sha256"], []).append(entry)
    return found


def find_reference(body: str, results_dir=None, *, earlier: Iterable[str] = ()) -> list[dict]:
    """The references recorded for this cell body after this earlier code (see :func:`cell_key`).

    Empty if the cell's code, or the earlier code it reads, changed since its GPU run.
    """
    return load_references(results_dir).get(cell_key(body, earlier), [])


def body_has_reference(body: str, results_dir=None) -> bool:
    """Whether some GPU ran this cell's code, whatever ran above it."""
    digest = body_sha256(cell_body(body))
    return any(
        entry.get("body_sha256", key) == digest
        for key, entries in load_references(results_dir).items()
        for entry in entries
    )


def solution_reference(
    body: str, results_dir=None, *, cell_id: str | None = None, root=None
) -> list[dict]:
    """The worked solution's references for an exercise's GPU cell with this ``body``.

    Those recorded for a cell of a ``solutions/`` notebook with the same code (and the same
    ``cell_id``, where the caller knows it: an exercise keeps its solution's cell ids), under
    the key that cell has in that notebook now (read from ``root``, the course's checkout
    by default): none where the solution changed since its GPU run, or is not there.
    """
    digest = body_sha256(cell_body(body))
    candidates: dict[tuple[str, str], list[dict]] = {}
    for key, entries in load_references(results_dir).items():
        for entry in entries:
            notebook = str(entry.get("notebook", ""))
            if entry.get("body_sha256", key) != digest or not notebook.startswith("solutions/"):
                continue
            if cell_id is None or entry["cell_id"] == cell_id:
                candidates.setdefault((notebook, entry["cell_id"]), []).append(entry)
    for (notebook, solution_id), entries in sorted(candidates.items()):
        path = Path(root if root is not None else COURSE_ROOT) / notebook
        if not path.is_file():
            continue
        cells = json.loads(path.read_text()).get("cells", [])
        sources = ["".join(c.get("source", "")) for c in cells if c.get("id") == solution_id]
        if not sources:
            continue
        key = cell_key(sources[0], earlier_sources(cells, solution_id))
        if current := [e for e in entries if e["sha256"] == key]:
            return current
    return []
