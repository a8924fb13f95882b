"""GPU reference outputs: what a GPU-only notebook cell printed on a real GPU.

Most learners have no GPU, so a cell that starts with ``%%requires_gpu`` skips
on their machine. It then shows what it printed on a real GPU instead, with
where that came from::

    On an NVIDIA H100 80GB HBM3, torch 2.11.0+cu130 (CUDA 13.0), 2026-11-23, this cell printed:

A reference belongs to one version of a cell's code: it is stored with the
SHA-256 of the cell's body (the source after the ``%%requires_gpu`` line), so
a cell whose code changed since its GPU run finds no reference and says so,
rather than showing a stale one.

Storage, one folder per GPU model, one file per notebook (``make gpu-check``
writes them; see ``docs/gpu-run.md``)::

    docs/results/<device>/cells/<folder>_<notebook>.json
    {"notebook": "notebooks/04_amp.ipynb",
     "cells": {"<nbformat cell id>": {"sha256": ..., "output": ..., "seconds": ...,
                                      "device": ..., "torch": ..., "cuda": ...,
                                      "date": ..., "origin": ...}}}

What it is not: a test of the outputs. nbval compares the CPU outputs stored
in the notebooks; a GPU reference is shown to the reader, never compared.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

__all__ = [
    "PROVENANCE_KEYS",
    "RESULTS_DIR",
    "cell_body",
    "body_sha256",
    "device_slug",
    "find_reference",
    "format_reference",
    "load_references",
    "outputs_to_text",
    "record_reference",
    "reference_file",
]

# The course's docs/results, next to the package in a checkout (absent from a wheel).
RESULTS_DIR = Path(__file__).resolve().parents[1] / "docs" / "results"
# What every reference records about where it came from.
PROVENANCE_KEYS = ("device", "torch", "cuda", "date", "origin")
MAGIC = "%%requires_gpu"


def cell_body(source: str) -> str:
    """The code of a ``%%requires_gpu`` cell without its first line (the whole source otherwise)."""
    if source.lstrip().startswith(MAGIC):
        return source.lstrip().partition("\n")[2]
    return source


def body_sha256(body: str) -> str:
    """The key a reference is stored under: SHA-256 of the body, trailing blanks ignored."""
    text = "\n".join(line.rstrip() for line in body.strip().splitlines())
    return hashlib.sha256(text.encode()).hexdigest()


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
    results_dir, notebook: str, cell_id: str, source: str, output: str, provenance: dict, **extra
) -> Path:
    """Store what cell ``cell_id`` of ``notebook`` printed, under its body's hash."""
    missing = [k for k in PROVENANCE_KEYS if not provenance.get(k)]
    if missing:
        raise ValueError(f"provenance must give {', '.join(PROVENANCE_KEYS)}; missing {missing}")
    path = reference_file(results_dir, provenance["device"], notebook)
    data = json.loads(path.read_text()) if path.exists() else {"notebook": notebook, "cells": {}}
    data["cells"][cell_id] = {
        "sha256": body_sha256(cell_body(source)),
        "output": output,
        **{k: provenance[k] for k in PROVENANCE_KEYS},
        **extra,
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    return path


def load_references(results_dir=None) -> dict[str, list[dict]]:
    """Every stored reference, by body hash: ``{sha256: [entry, ...]}`` (one per device)."""
    root = Path(results_dir) if results_dir is not None else RESULTS_DIR
    found: dict[str, list[dict]] = {}
    for path in sorted(root.glob("*/cells/*.json")):
        data = json.loads(path.read_text())
        for cell_id, entry in data.get("cells", {}).items():
            entry = dict(entry, cell_id=cell_id, notebook=data.get("notebook", path.stem))
            found.setdefault(entry["sha256"], []).append(entry)
    return found


def find_reference(body: str, results_dir=None) -> list[dict]:
    """The references recorded for exactly this cell body (empty if its code changed since)."""
    return load_references(results_dir).get(body_sha256(body), [])


def format_reference(entries: list[dict]) -> str:
    """The text a skipped cell shows: each GPU's output with its provenance, or why there is none."""
    if not entries:
        return (
            "No GPU reference output exists for this cell yet: it has not been run on a GPU "
            "since its code last changed (see docs/gpu-run.md)."
        )
    blocks = []
    for e in entries:
        head = (
            f"On an {e['device']}, torch {e['torch']} (CUDA {e['cuda']}), {e['date']}, "
            "this cell printed:"
        )
        body = e["output"].rstrip("\n") or "(nothing)"
        blocks.append(head + "\n" + "\n".join("    " + line for line in body.splitlines()))
    return "\n".join(blocks)
