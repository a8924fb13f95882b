"""Lessons apart from the checks of their claims, in the chapter notebooks.

A cell that measures and then asserts a claim under retries (``d2lgpu.fastest_of``) is
split in two: a plain lesson cell with the code the learner reads and changes, then a
cell tagged ``claim`` that holds the retries and the ``assert``. nbval runs both, in
order. JupyterLab shows a claim cell collapsed (``"jupyter": {"source_hidden": true}``),
as its first line, which says what it checks, followed by "...", with its outputs shown.
"""

from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
CHAPTERS = sorted((ROOT / "notebooks").glob("*.ipynb"))
LESSON_LINES = 25  # a lesson cell next to a claim, or one that measures, is shorter than this


def code_cells(path):
    return [c for c in nbformat.read(path, as_version=4).cells if c.cell_type == "code"]


def is_claim(cell):
    return "claim" in cell.metadata.get("tags", [])


def lines(cell):
    return cell.source.splitlines()


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_claim_cells_are_collapsed_under_one_line_after_a_lesson_cell(path):
    cells = code_cells(path)
    for i, cell in enumerate(cells):
        if not is_claim(cell):
            continue
        where = f"{path.name}, claim cell {cell.get('id')}"
        assert cell.metadata.get("jupyter", {}).get("source_hidden") is True, (
            f'{where}: set its metadata "jupyter": {{"source_hidden": true}}, so it shows collapsed'
        )
        assert not cell.metadata["jupyter"].get("outputs_hidden"), f"{where}: keep its outputs"
        first, *rest = lines(cell) or [""]
        assert first.startswith("# ") and len(first) <= 100, (
            f"{where}: its first line is the one-line comment saying what it checks "
            f"(at most 100 characters), got {first!r}"
        )
        assert rest and not rest[0].startswith("#"), (
            f"{where}: what it checks fits on its first line; the code follows at once"
        )
        assert i > 0, f"{where}: a claim cell follows the lesson cell it checks"
        lesson = cells[i - 1]
        assert not is_claim(lesson) and not lesson.source.lstrip().startswith("%%"), (
            f"{where}: the cell above it must be a plain lesson cell"
        )
        assert len(lines(lesson)) < LESSON_LINES, (
            f"{where}: its lesson cell has {len(lines(lesson))} lines; keep it under {LESSON_LINES}"
        )


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.name)
def test_retries_of_a_claim_are_not_in_a_long_lesson_cell(path):
    for cell in code_cells(path):
        if "fastest_of(" in cell.source and not is_claim(cell):
            assert len(lines(cell)) < LESSON_LINES, (
                f"{path.name}, cell {cell.get('id')}: {len(lines(cell))} lines call fastest_of "
                f"outside a cell tagged claim; split the retries and asserts into a claim cell"
            )


def test_the_chapters_have_claim_cells():
    assert sum(is_claim(c) for path in CHAPTERS for c in code_cells(path)) >= 7
