"""Every chapter ends its main path with "On a real job": the decisions it equips you to make.

The convention (CONTRIBUTING.md): just before ``## Summary``, a markdown cell on the
main path (not tagged ``going-further``) headed ``## On a real job``, holding 3 to 6
decisions, each naming the measurement or reference that backs it. As the chapters write
them, a decision is a top-level list item (``- `` at the start of a line) that opens with
the decision in bold (``- **Pin memory you reuse:** ...``) and names a section of its own
chapter, ``N.M`` of chapter ``N``, where that measurement or reference is ("section 2.7's
H100 and H200 references", "(8.2's table)"). The section must exist in the chapter. That a
published number names its source is left to whoever writes it: no test can tell a
published number from a measured one.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHAPTERS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
HEADING = "## On a real job"
SUMMARY = "## Summary"
TAG = "going-further"
MIN_DECISIONS, MAX_DECISIONS = 3, 6


def source(cell: dict) -> str:
    return "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]


def headed(cell: dict, heading: str) -> bool:
    """Whether a markdown cell has ``heading`` as a line of its own."""
    return cell["cell_type"] == "markdown" and any(
        line.rstrip() == heading for line in source(cell).splitlines()
    )


def decisions(markdown: str) -> list[str]:
    """The top-level list items of a cell, each with its continuation lines."""
    return [item.strip() for item in re.split(r"^- ", markdown, flags=re.M)[1:]]


def sections(notebook: dict) -> set[str]:
    """The section numbers of a chapter's headings: ``{"2.1", ..., "2.14"}``."""
    found = set()
    for cell in notebook["cells"]:
        if cell["cell_type"] == "markdown":
            found.update(re.findall(r"^#{2,4} (\d+\.\d+)\s", source(cell), flags=re.M))
    return found


def named_sections(decision: str, chapter: int) -> list[str]:
    """The sections of chapter ``chapter`` that a decision names: "2.7", not "2.86x" or "12.7"."""
    return re.findall(rf"(?<![\d.]){chapter}\.\d{{1,2}}(?![\d]|\.\d|x)", decision)


def problems(notebook: dict, chapter: int) -> list[str]:
    """What breaks the convention in one chapter (an empty list where nothing does)."""
    cells = notebook["cells"]
    found = [i for i, cell in enumerate(cells) if headed(cell, HEADING)]
    if len(found) != 1:
        return [f"{len(found)} cells with the heading {HEADING!r}, not 1"]
    index = found[0]
    cell = cells[index]
    wrong = []
    if TAG in cell.get("metadata", {}).get("tags", []):
        wrong.append(f"the {HEADING!r} cell is tagged {TAG}: it belongs on the main path")
    if source(cell).splitlines()[0].rstrip() != HEADING:
        wrong.append(f"the cell does not start with {HEADING!r}")
    if index + 1 >= len(cells) or not headed(cells[index + 1], SUMMARY):
        wrong.append(f"the cell after {HEADING!r} is not the one with {SUMMARY!r}")
    items = decisions(source(cell))
    if not MIN_DECISIONS <= len(items) <= MAX_DECISIONS:
        wrong.append(f"{len(items)} decisions, not {MIN_DECISIONS} to {MAX_DECISIONS}")
    known = sections(notebook)
    for item in items:
        first = item.splitlines()[0][:60]
        if not re.match(r"\*\*[^*]+\*\*", item):
            wrong.append(f"a decision that does not open in bold: {first!r}")
        named = named_sections(item, chapter)
        if not named:
            wrong.append(f"a decision naming no section of chapter {chapter}: {first!r}")
        elif not set(named) & known:
            wrong.append(f"a decision naming sections the chapter lacks ({named}): {first!r}")
    return wrong


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_the_chapter_ends_its_main_path_with_on_a_real_job(path):
    found = problems(json.loads(path.read_text()), int(path.name[:2]))
    assert not found, "\n".join(found)


def test_every_chapter_is_checked():
    assert [int(p.name[:2]) for p in CHAPTERS] == list(range(1, 12))


# --- the checks on small chapters: each fails when it should ------------------------------


def md(text: str, *tags: str) -> dict:
    return {"cell_type": "markdown", "metadata": {"tags": list(tags)}, "source": text}


GOOD_JOB = (
    "## On a real job\n\n"
    "- **Pin memory you reuse.** Section 2.7's reference shows pinned copies faster.\n"
    "- **Time with a sync.** In 2.4's reference the calls returned early,\n"
    "  long before the work: 1.5x off.\n"
    "- **Batch small tensors** (section 2.11).\n"
)


def chapter(*cells: dict) -> dict:
    return {"cells": [md("# 2. Tensors"), md("## 2.4 Timing"), md("## 2.7 Pinning"),
                      md("## 2.11 Batching"), *cells]}  # fmt: skip


def test_a_well_formed_chapter_passes():
    assert problems(chapter(md(GOOD_JOB), md("## Summary\n\n- facts")), 2) == []


@pytest.mark.parametrize(
    ("cells", "expected"),
    [
        ([md("## Summary")], "0 cells with the heading"),
        ([md(GOOD_JOB), md(GOOD_JOB), md("## Summary")], "2 cells with the heading"),
        ([md(GOOD_JOB, TAG), md("## Summary")], "tagged going-further"),
        ([md("## Summary"), md(GOOD_JOB)], "is not the one with '## Summary'"),
        ([md(GOOD_JOB), md("## Exercises"), md("## Summary")], "is not the one with"),
        (
            [md(GOOD_JOB.split("- **Batch")[0].replace("- **Time", "Time")), md("## Summary")],
            "1 decisions, not 3 to 6",
        ),
        ([md(GOOD_JOB + "- **a**  2.4\n" * 4), md("## Summary")], "7 decisions"),
        (
            [md(GOOD_JOB + "- **Use DDP.** Chapter 5 shows it.\n"), md("## Summary")],
            "naming no section of chapter 2",
        ),
        (
            [md(GOOD_JOB + "- **Guess.** A 2.86x gain, 12.7 on average.\n"), md("## Summary")],
            "naming no section of chapter 2",
        ),
        (
            [md(GOOD_JOB + "- **Read 2.9.** It says so.\n"), md("## Summary")],
            "sections the chapter lacks (['2.9'])",
        ),
        ([md(GOOD_JOB + "- Not in bold (2.4).\n"), md("## Summary")], "does not open in bold"),
    ],
)
def test_each_break_of_the_convention_is_found(cells, expected):
    found = problems(chapter(*cells), 2)
    assert any(expected in line for line in found), found
