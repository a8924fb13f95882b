"""How a skipped GPU cell shows its references (for :mod:`d2lgpu.references`).

One reference per cell is shown: the newest recording (by date), in a bordered block
captioned with where it came from. The references of other GPUs follow, collapsed under
"Other GPUs" (a ``<details>`` element, closed until the reader opens it; the plain text
lists them below that heading). GPUs that printed the same output share one block, one
caption line each::

    Recorded on NVIDIA H200 with torch 2.11.0+cu130, 2026-11-28 (this machine has torch 2.14.1)
    Recorded on NVIDIA H100 80GB HBM3 with torch 2.11.0+cu130, 2026-11-23
        <what the cell printed there>

The note in brackets appears only where the installed torch release differs from one that
recorded the block. In an exercise whose learner's code has not run on a GPU, the worked
solution's references are shown under a line that says so (``solution=True``).

Everything comes from the stored references and the installed torch: nothing that changes
from one run to the next, since ``make outputs`` stores it and nbval compares it. Where the
references are stored and how they are keyed is elsewhere (:mod:`d2lgpu.references`).
"""

from __future__ import annotations

import html
import re

__all__ = [
    "NO_REFERENCE",
    "OTHER_CELLS_ABOVE",
    "OTHER_GPUS",
    "SOLUTION_LABEL",
    "caption",
    "format_reference",
    "grouped",
    "reference_bundle",
    "torch_release",
]

# What a skipped cell says when no GPU has run this version of its code.
NO_REFERENCE = (
    "No GPU reference output exists yet for this cell's code: it has not been run on a GPU "
    "since it last changed (see docs/gpu-run.md)."
)
# What it says when a GPU ran this cell's code, but after other code above it than ran here.
OTHER_CELLS_ABOVE = (
    "No GPU reference output exists for this cell after the cells above it as they ran here: "
    "the GPU ran this cell's code after other code above it (sizes, settings, definitions). "
    "Run the cells above in order; if they changed, the next GPU run records it "
    "(see docs/gpu-run.md)."
)
# Above the worked solution's references, in an exercise whose learner's code found none.
SOLUTION_LABEL = "The worked solution, run on {gpus}: your code has not run on a GPU"
# The heading of the collapsed references of the GPUs whose block is not the one shown.
OTHER_GPUS = "Other GPUs"
# The box around a reference in JupyterLab: inline styles only (no stylesheet to rely on),
# colours readable on the light and the dark theme alike.
_BOX = (
    "border: 1px solid #999; border-left: 4px solid #e69f00; padding: 0.3em 0.8em; margin: 0.2em 0"
)


def torch_release(version: str) -> str:
    """The release part of a torch version: ``"2.11.0+cu130"`` -> ``"2.11.0"``."""
    match = re.match(r"\d+(\.\d+)*", version.strip())
    return match.group() if match else version.strip()


def caption(entry: dict) -> str:
    """Where one reference came from, in the lab and in the book alike."""
    return f"Recorded on {entry['device']} with torch {entry['torch']}, {entry['date']}"


def _torch_note(block: list[dict], installed_torch: str | None) -> str:
    """``(this machine has torch X)`` where a release in ``block`` is not the installed one."""
    if installed_torch is None:
        return ""
    here = torch_release(installed_torch)
    if all(torch_release(str(e["torch"])) == here for e in block):
        return ""
    return f"(this machine has torch {here})"


def _output(entry: dict) -> str:
    return entry["output"].rstrip("\n") or "(nothing)"


def grouped(entries: list[dict]) -> list[list[dict]]:
    """The references as blocks, the one to show first: the newest recording's block.

    Entries that printed the same output share a block; blocks and the entries in each are
    ordered newest first (the date, then the device's name, for a stable order).
    """
    newest_first = sorted(sorted(entries, key=lambda e: str(e["device"])),
                          key=lambda e: str(e["date"]), reverse=True)  # fmt: skip
    blocks: dict[str, list[dict]] = {}
    for entry in newest_first:
        blocks.setdefault(_output(entry), []).append(entry)
    return list(blocks.values())


def _listed(entries: list[dict]) -> str:
    """The GPUs of ``entries``, each once: ``"A"``, ``"A and B"``, ``"A, B and C"``."""
    names = list(dict.fromkeys(str(e["device"]) for e in entries))
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _parts(entries: list[dict], solution: bool) -> tuple[str, list[list[dict]], str]:
    """The label above the blocks (or ""), the blocks, and the heading of the collapsed ones."""
    if not entries:
        raise ValueError("no references to show: say NO_REFERENCE instead")
    blocks = grouped(entries)
    label = SOLUTION_LABEL.format(gpus=_listed(blocks[0])) if solution else ""
    others = f"{OTHER_GPUS}: {_listed([e for b in blocks[1:] for e in b])}" if blocks[1:] else ""
    return label, blocks, others


def _text_block(block: list[dict], installed_torch: str | None) -> list[str]:
    note = _torch_note(block, installed_torch)
    lines = [caption(block[0]) + (f" {note}" if note else "")]
    lines += [caption(e) for e in block[1:]]
    return lines + ["    " + line for line in _output(block[0]).splitlines()]


def format_reference(
    entries: list[dict], installed_torch: str | None = None, *, solution: bool = False
) -> str:
    """The plain text a skipped cell shows: its references as blocks, or why there are none.

    The newest recording's block first, then, under "Other GPUs: ...", the others.
    ``installed_torch`` (``torch.__version__``) adds a note to a caption where the release
    that recorded it differs; ``None`` leaves the versions uncompared. ``solution``: these
    are the worked solution's references, shown in an exercise, and a line above says so.
    """
    if not entries:
        return NO_REFERENCE
    label, blocks, others = _parts(entries, solution)
    lines = [label] if label else []
    lines += _text_block(blocks[0], installed_torch)
    if others:
        lines.append(others)
        for block in blocks[1:]:
            lines += _text_block(block, installed_torch)
    return "\n".join(lines)


def _html_block(block: list[dict], installed_torch: str | None) -> str:
    note = _torch_note(block, installed_torch)
    captions = [f"<strong>{html.escape(caption(e))}</strong>" for e in block]
    if note:
        captions[0] += f" <em>{html.escape(note)}</em>"
    return (
        f'<div style="{_BOX}">'
        + "<br>".join(captions)
        + f'<pre style="margin: 0.3em 0 0">{html.escape(_output(block[0]))}</pre></div>'
    )


def reference_bundle(
    entries: list[dict], installed_torch: str | None = None, *, solution: bool = False
) -> dict[str, str]:
    """The display of a skipped cell's references: ``{"text/html": ..., "text/plain": ...}``.

    The HTML draws the newest recording's block as a bordered box captioned with its
    provenance, so it does not read as a measurement of this machine, and the other GPUs'
    blocks in a ``<details>`` element below it, closed; the plain text (:func:`format_reference`)
    says the same for terminals, nbval and the site's search.
    """
    label, blocks, others = _parts(entries, solution)
    shown = (
        f'<p style="margin: 0.2em 0; font-weight: bold">{html.escape(label)}</p>' if label else ""
    )
    shown += _html_block(blocks[0], installed_torch)
    if others:
        shown += (
            f'<details style="margin: 0.2em 0"><summary>{html.escape(others)}</summary>'
            + "".join(_html_block(block, installed_torch) for block in blocks[1:])
            + "</details>"
        )
    return {
        "text/html": shown,
        "text/plain": format_reference(entries, installed_torch, solution=solution),
    }
