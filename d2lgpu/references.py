"""GPU reference outputs: what a GPU-only notebook cell printed on a real GPU.

Most learners have no GPU, so a cell that starts with ``%%requires_gpu`` skips
on their machine. It then shows what it printed on a real GPU instead, in a
bordered block (:func:`reference_bundle`: HTML for JupyterLab, the same in
plain text for terminals and text-only readers) headed with where it came from::

    Recorded on an NVIDIA H100 80GB HBM3, torch 2.11.0+cu130 (CUDA 13.0), 2026-11-23: not this machine
    recorded with torch 2.11.0; this machine has torch 2.14.1
        <what the cell printed there>

The second line appears only when the installed torch release differs.

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
import html
import json
import re
from pathlib import Path

__all__ = [
    "NO_REFERENCE",
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
    "reference_bundle",
    "reference_file",
    "torch_release",
]

# The course's docs/results, next to the package in a checkout (absent from a wheel).
RESULTS_DIR = Path(__file__).resolve().parents[1] / "docs" / "results"
# What every reference records about where it came from.
PROVENANCE_KEYS = ("device", "torch", "cuda", "date", "origin")
MAGIC = "%%requires_gpu"
# What a skipped cell says when no GPU has run this version of its code.
NO_REFERENCE = (
    "No GPU reference output exists yet for this cell's code: it has not been run on a GPU "
    "since it last changed (see docs/gpu-run.md)."
)
# The box around a reference in JupyterLab: inline styles only (no stylesheet to rely on),
# colours readable on the light and the dark theme alike.
_BOX = (
    "border: 1px solid #999; border-left: 4px solid #e69f00; padding: 0.3em 0.8em; margin: 0.2em 0"
)


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


def torch_release(version: str) -> str:
    """The release part of a torch version: ``"2.11.0+cu130"`` -> ``"2.11.0"``."""
    match = re.match(r"\d+(\.\d+)*", version.strip())
    return match.group() if match else version.strip()


def _heading(entry: dict) -> str:
    device = entry["device"]
    # "an NVIDIA ...", "an A100", "a Tesla T4": the article as the name is read aloud.
    article = "an" if device.startswith("NVIDIA") or device[:1].upper() in "AEIOU" else "a"
    return (
        f"Recorded on {article} {device}, torch {entry['torch']} (CUDA {entry['cuda']}), "
        f"{entry['date']}: not this machine"
    )


def _torch_note(entry: dict, installed_torch: str | None) -> str:
    """One line when the reference's torch release is not the installed one, else ``""``."""
    if installed_torch is None:
        return ""
    recorded, here = torch_release(str(entry["torch"])), torch_release(installed_torch)
    if recorded == here:
        return ""
    return f"recorded with torch {recorded}; this machine has torch {here}"


def format_reference(entries: list[dict], installed_torch: str | None = None) -> str:
    """The plain text a skipped cell shows: each GPU's output under its provenance, or why none.

    ``installed_torch`` (``torch.__version__``) adds a line where the reference's torch
    release differs from it; ``None`` leaves the versions uncompared.
    """
    if not entries:
        return NO_REFERENCE
    blocks = []
    for e in entries:
        lines = [_heading(e)]
        if note := _torch_note(e, installed_torch):
            lines.append(note)
        body = e["output"].rstrip("\n") or "(nothing)"
        lines += ["    " + line for line in body.splitlines()]
        blocks.append("\n".join(lines))
    return "\n".join(blocks)


def reference_bundle(entries: list[dict], installed_torch: str | None = None) -> dict[str, str]:
    """The display of a skipped cell's references: ``{"text/html": ..., "text/plain": ...}``.

    The HTML draws each reference as a bordered box headed with its provenance, so it
    does not read as a measurement of this machine; the plain text says the same for
    terminals, nbval and the site. Everything comes from the stored references and the
    installed torch: nothing that changes from one run to the next.
    """
    if not entries:
        raise ValueError("no references to show: say NO_REFERENCE instead")
    boxes = []
    for e in entries:
        note = _torch_note(e, installed_torch)
        body = e["output"].rstrip("\n") or "(nothing)"
        boxes.append(
            f'<div style="{_BOX}">'
            f"<strong>{html.escape(_heading(e))}</strong>"
            + (f"<br><em>{html.escape(note)}</em>" if note else "")
            + f'<pre style="margin: 0.3em 0 0">{html.escape(body)}</pre></div>'
        )
    return {"text/html": "".join(boxes), "text/plain": format_reference(entries, installed_torch)}
