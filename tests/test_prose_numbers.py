"""Prose that cannot drift: no measured number typed into a chapter's or an exercise's text.

A number with a unit of time, size, rate or speed-up in a markdown cell of ``notebooks/`` or
``solutions/`` (the source of ``exercises/``) must appear in what that notebook printed: its
stored outputs, or the GPU references under ``docs/results/`` that its skipped cells show.
A hardware-dependent number belongs in a cell's output, printed from the measurement, and
the prose says what it means; where the prose must cite a GPU number, it points at the
reference under the cell. Numbers that are no measurement (a datasheet figure, a size the
code sets, a default of PyTorch's) are allowed through ``ALLOWED``, each with its source.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("notebooks", "solutions")

UNITS = r"ms|µs|us|ns|s|GB/s|TB/s|MB/s|GFLOP/s|TFLOP/s|KiB|MiB|GiB|kB|MB|GB"
# "3.5 ms", "64 MiB", "7.1x", "2×"; not "1024 x 1024" (a shape) nor "8 bytes" (no unit here)
NUMBER = re.compile(
    rf"(?<![\w.])(\d+(?:\.\d+)?)(?:\s?({UNITS})(?![\w/])|(x|×)(?![\w]))", re.UNICODE
)
TOKEN = re.compile(r"\d+(?:\.\d+)?")

# (notebook, or "*" for any, "number unit") -> where it comes from. Keep it short: a measured
# number never goes here.
ALLOWED = {
    ("*", "25 MiB"): "DDP's default bucket_cap_mb (torch/nn/parallel/distributed.py)",
    ("*", "1 MiB"): "DDP's first bucket with bucket_cap_mb at its default (same source)",
    ("*", "2x"): "the bound of overlapping two equal stages, c + (n - 1) max(c, k) + k",
    ("solutions/08_streams.ipynb", "32 MiB"): "the batch size of d2lgpu/checks/_stream_gpu.py",
}


def allowed(path: Path, quoted: str) -> bool:
    name = f"{path.parent.name}/{path.name}"
    return ("*", quoted) in ALLOWED or (name, quoted) in ALLOWED


def prose_of(cell: dict) -> str:
    """A markdown cell's text without code blocks, inline code and link targets."""
    text = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
    text = re.sub(r"```.*?```", " ", text, flags=re.S)
    text = re.sub(r"`[^`\n]*`", " ", text)
    text = re.sub(r"\]\([^)\s]*\)", "]", text)  # the target of [text](target)
    return re.sub(r"<!--.*?-->", " ", text, flags=re.S)


def printed(notebook: dict, path: Path) -> set[str]:
    """Every number this notebook printed: stored outputs and its GPU references."""
    texts = []
    for cell in notebook["cells"]:
        for output in cell.get("outputs", []):
            texts.append("".join(output.get("text", "")))
            for mime, value in output.get("data", {}).items():
                if mime.startswith("text/"):
                    texts.append("".join(value))
    folder = path.parent.name
    for reference in ROOT.glob(f"docs/results/*/cells/{folder}_{path.stem}.json"):
        for cell in json.loads(reference.read_text())["cells"].values():
            texts.append(str(cell.get("output", "")))
    return set(TOKEN.findall("\n".join(texts)))


def typed_numbers(path: Path) -> list[str]:
    """The numbers with a unit in ``path``'s prose that it never printed, as 'cell N: 3 ms'."""
    notebook = json.loads(path.read_text())
    numbers = printed(notebook, path)
    found = []
    for index, cell in enumerate(notebook["cells"]):
        if cell["cell_type"] != "markdown":
            continue
        for match in NUMBER.finditer(prose_of(cell)):
            value, unit = match.group(1), match.group(2) or match.group(3)
            quoted = f"{value} {unit}" if match.group(2) else f"{value}{unit}"
            if value not in numbers and not allowed(path, quoted):
                found.append(f"cell {index}: {quoted}")
    return found


NOTEBOOKS = sorted(p for folder in FOLDERS for p in (ROOT / folder).glob("*.ipynb"))


def quoted_in_prose(path: Path) -> set[str]:
    """Every number with a unit in ``path``'s prose, as quoted ('3 ms', '2x')."""
    notebook = json.loads(path.read_text())
    quoted = set()
    for cell in notebook["cells"]:
        if cell["cell_type"] == "markdown":
            for match in NUMBER.finditer(prose_of(cell)):
                value, unit = match.group(1), match.group(2) or match.group(3)
                quoted.add(f"{value} {unit}" if match.group(2) else f"{value}{unit}")
    return quoted


def test_every_allowed_number_is_still_in_the_prose():
    # An entry whose number left the prose would let the next typed one through unseen.
    by_name = {f"{p.parent.name}/{p.name}": quoted_in_prose(p) for p in NOTEBOOKS}
    everywhere = set().union(*by_name.values())
    unused = [
        key
        for key in ALLOWED
        if key[1] not in (everywhere if key[0] == "*" else by_name.get(key[0], set()))
    ]
    assert not unused, f"ALLOWED entries no prose quotes any more, remove them: {unused}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_prose_types_no_number_its_cells_did_not_print(path):
    typed = typed_numbers(path)
    assert not typed, (
        f"{path.relative_to(ROOT)}: numbers in the prose that no output or GPU reference of "
        f"this notebook prints: {typed}. Print them from the measurement in a cell, cite the "
        "reference under the cell, or, for a constant that is no measurement, add it to "
        "ALLOWED with its source."
    )


def test_the_scan_finds_a_typed_number_and_accepts_a_printed_one(tmp_path):
    folder = tmp_path / "notebooks"
    folder.mkdir()
    path = folder / "99_x.ipynb"
    markdown = {"cell_type": "markdown", "metadata": {}, "source": ""}
    code = {"cell_type": "code", "metadata": {}, "source": "", "execution_count": 1}
    code["outputs"] = [{"output_type": "stream", "name": "stdout", "text": "step: 3.25 ms, 7.1x"}]
    cases = {
        "Measured: 3.25 ms, 7.1x faster.": [],
        "It took 4.2 ms, 12x faster, over 64 MiB at 55 GB/s.": [
            "cell 0: 4.2 ms",
            "cell 0: 12x",
            "cell 0: 64 MiB",
            "cell 0: 55 GB/s",
        ],  # fmt: skip
        "A `4.2 ms` in code, a [link](../docs/H100-80GB/x.md), a 1024 x 1024 shape.": [],
        "DDP's buckets of 25 MiB.": [],  # in ALLOWED, for any notebook
        "Batches of 32 MiB.": ["cell 0: 32 MiB"],  # in ALLOWED for another notebook only
    }
    for prose, expected in cases.items():
        notebook = {"cells": [{**markdown, "source": prose}, code], "metadata": {}}
        path.write_text(json.dumps(notebook))
        assert typed_numbers(path) == expected, prose
