"""Hold each chapter to its main path: at most 3,000 words, Going-further parts that fold away.

    .venv/bin/python tools/main_path.py                 # every notebooks/NN_*.ipynb: table + checks
    .venv/bin/python tools/main_path.py notebooks/02_tensors.ipynb ...
    .venv/bin/python tools/main_path.py --words         # the table alone, always exit 0

A chapter's **main path** is what a learner needs to apply it; depth sits in
**Going-further parts** right where it belongs: runs of consecutive cells, each tagged
``going-further`` (see CONTRIBUTING.md). The table gives, per chapter, the words of the
main path (the whitespace-separated tokens of the markdown cells not tagged
``going-further``) and of the parts. Then, per notebook, every violation of these rules
(exit status 1 if there is any):

* the main path has more than :data:`MAX_WORDS` words;
* a part's first cell is not a markdown cell whose first line is a heading
  ``### Going further: ...`` (``####`` inside a ``###`` subsection) with the cell metadata
  ``"jp-MarkdownHeadingCollapsed": true`` (JupyterLab then shows the part collapsed);
* JupyterLab would fold the wrong cells: a cell inside a part is a heading of the part's
  level or higher (the cells after it would show), the first cell after a part is not a
  markdown heading of the part's level or higher (JupyterLab would hide it with the part),
  or a main-path cell carries the collapse flag;
* a heading skips a level (``#`` then ``###``): the book's build (MyST) fails on it, and a
  part placed before a chapter's first ``##`` section needs a ``##`` heading;
* a main-path code cell reads a name that only Going-further cells above it bind, or that
  one of them rebinds or changes after the main path bound it (the statement analysis of
  :mod:`d2lgpu.references`: the names each top-level statement binds and reads);
* a main-path GPU cell's reference key (:func:`d2lgpu.references.cell_key`) changes when
  the Going-further cells are removed: its stored GPU reference then depends on them.

The last two rules are ``tools/part_reads.py``'s, and what a part is (its cells, the notebook
without them) is ``tools/part_cells.py``'s. Every function takes a notebook as JSON
(``json.load``), so that tests build small ones.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))  # its own pieces, also where a test loads it by path

from part_cells import (  # noqa: E402
    TAG,
    is_going_further,
    load,
    main_path,
    parts,
    source_of,
    where_is,
)
from part_reads import changed_gpu_keys, reads_from_parts  # noqa: E402

# The checks and what they read, for the tests and CONTRIBUTING.md's recipe, wherever written
__all__ = [
    "COLLAPSED",
    "MAX_WORDS",
    "TAG",
    "changed_gpu_keys",
    "chapters",
    "fold_level",
    "going_further_words",
    "load",
    "main",
    "main_path",
    "main_path_words",
    "parts",
    "reads_from_parts",
    "skipped_levels",
    "structure_violations",
    "table",
    "violations",
]

COLLAPSED = "jp-MarkdownHeadingCollapsed"
MAX_WORDS = 3000
HEADING = re.compile(r"^(#{1,6})\s+(\S.*?)\s*#*\s*$")
ATX = re.compile(r"^ {0,3}(#{1,6})(\s|$)")
SETEXT = re.compile(r"^ {0,3}(=+|-+)\s*$")
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
TITLE = "Going further:"


def chapters(root: Path = ROOT) -> list[Path]:
    """Every chapter notebook, ``notebooks/NN_*.ipynb``, in order."""
    return sorted((root / "notebooks").glob("[0-9][0-9]_*.ipynb"))


def heading(cell: dict) -> tuple[int, str] | None:
    """``(level, text)`` of a markdown cell whose first line is a heading; None otherwise."""
    if cell.get("cell_type") != "markdown":
        return None
    lines = source_of(cell).lstrip("\n").splitlines()
    match = HEADING.match(lines[0]) if lines else None
    return (len(match.group(1)), match.group(2)) if match else None


def heading_levels(cell: dict) -> list[int]:
    """The levels of a markdown cell's headings, in order (a ``#`` heading or an underlined
    one, outside fenced code); empty for any other cell."""
    if cell.get("cell_type") != "markdown":
        return []
    levels, fence, previous = [], None, ""
    for line in source_of(cell).splitlines():
        stripped = line.strip()
        opening = FENCE.match(line)
        if fence is not None:
            if opening and opening.group(1)[0] == fence[0] and len(opening.group(1)) >= len(fence):
                fence = None
            previous = ""
            continue
        if opening:
            fence, previous = opening.group(1), ""
            continue
        if match := ATX.match(line):
            levels.append(len(match.group(1)))
            previous = ""
            continue
        if previous and SETEXT.match(line):
            levels.append(1 if stripped.startswith("=") else 2)
            previous = ""
            continue
        previous = stripped
    return levels


def fold_level(cell: dict) -> int | None:
    """The heading level JupyterLab folds a markdown cell at; None for a cell it does not fold.

    JupyterLab 4 takes every heading of the cell's markdown and folds at the highest of them,
    the smallest level: a collapsed heading hides the cells below it up to the next cell
    whose level is the same or smaller.
    """
    levels = heading_levels(cell)
    return min(levels) if levels else None


def skipped_levels(nb: dict) -> list[str]:
    """Headings more than one level below the heading before them (``#`` then ``###``).

    The book's MyST warns on each, and ``make site`` fails on a warning.
    """
    found, previous = [], 0
    for i, cell in enumerate(nb["cells"]):
        for level in heading_levels(cell):
            if previous and level > previous + 1:
                found.append(
                    f"{where_is(cell, i)}: a level-{level} heading right after a level-{previous} "
                    f"one: the book's build fails on a skipped level (make it "
                    f"{'#' * (previous + 1)}, or put it under a {'#' * (level - 1)} heading)"
                )
            previous = level
    return found


def words(cell: dict) -> int:
    return len(source_of(cell).split())


def main_path_words(nb: dict) -> int:
    """The words of the markdown cells not tagged ``going-further``: the 3,000-word count."""
    return sum(
        words(c) for c in nb["cells"] if c["cell_type"] == "markdown" and not is_going_further(c)
    )


def going_further_words(nb: dict) -> int:
    return sum(
        words(c) for c in nb["cells"] if c["cell_type"] == "markdown" and is_going_further(c)
    )


def structure_violations(nb: dict) -> list[str]:
    """Parts that JupyterLab would not fold as one piece, or that are not headed as agreed."""
    cells = nb["cells"]
    found = []
    for first, end in parts(nb):
        head = heading(cells[first])
        where = where_is(cells[first], first)
        if head is None:
            found.append(
                f"{where}: a Going-further part must start with a markdown cell whose first "
                f"line is a heading '### {TITLE} ...' (this {cells[first]['cell_type']} cell "
                "does not)"
            )
            continue
        level, text = head
        if not text.startswith(TITLE):
            found.append(
                f"{where}: the part's heading should read '{'#' * level} {TITLE} <what it "
                f"covers>', not {text!r}"
            )
        if cells[first].get("metadata", {}).get(COLLAPSED) is not True:
            found.append(
                f'{where}: the part\'s heading cell needs the metadata "{COLLAPSED}": true '
                "(JupyterLab then shows the part collapsed)"
            )
        if (folds := fold_level(cells[first])) != level:
            found.append(
                f"{where}: the cell also has a level-{folds} heading, so JupyterLab folds it "
                f"at level {folds}, not at its first line's level {level}: keep one heading "
                "in the part's first cell"
            )
            level = folds or level
        for i in range(first + 1, end):
            inner = fold_level(cells[i])
            if inner is not None and inner <= level:
                found.append(
                    f"{where_is(cells[i], i)}: a level-{inner} heading inside a part headed at "
                    f"level {level}: JupyterLab would show the cells from here on (use "
                    f"{'#' * (level + 1)} or deeper inside a part)"
                )
        if end < len(cells):
            after = fold_level(cells[end])
            if after is None or after > level:
                found.append(
                    f"{where_is(cells[end], end)}: the first main-path cell after the part that "
                    f"starts at cell {first} must be a heading of level {level} or "
                    f"higher ({'#' * level} or fewer #): JupyterLab would hide it with the "
                    "collapsed part"
                )
    for i, cell in enumerate(cells):
        if not is_going_further(cell) and cell.get("metadata", {}).get(COLLAPSED):
            found.append(
                f"{where_is(cell, i)}: a main-path cell with {COLLAPSED}: JupyterLab would hide "
                "the main-path cells below it"
            )
    return found


def violations(nb: dict) -> list[str]:
    """Everything wrong with one notebook's main path and parts (empty: all good)."""
    found = []
    count = main_path_words(nb)
    if count > MAX_WORDS:
        found.append(
            f"the main path has {count} words, more than {MAX_WORDS}: move depth into "
            "Going-further parts"
        )
    return (
        found
        + structure_violations(nb)
        + skipped_levels(nb)
        + reads_from_parts(nb)
        + changed_gpu_keys(nb)
    )


def table(rows: list[tuple[str, int, int, int]]) -> str:
    """The words table: chapter, main-path words, Going-further words, parts."""
    lines = [f"{'chapter':<24} {'main path':>9} {'further':>8} {'parts':>5}"]
    for name, main, further, n_parts in rows:
        flag = "  over" if main > MAX_WORDS else ""
        lines.append(f"{name:<24} {main:>9} {further:>8} {n_parts:>5}{flag}")
    return "\n".join(lines)


def _display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "notebooks", nargs="*", type=Path, help="chapter notebooks (default: notebooks/NN_*.ipynb)"
    )
    parser.add_argument("--words", action="store_true", help="print the table only; exit 0")
    args = parser.parse_args(argv)
    paths = args.notebooks or chapters()
    missing = [str(p) for p in paths if not p.is_file()]
    if missing:
        parser.error(f"NOTEBOOK must be an existing .ipynb file; not found: {', '.join(missing)}")
    loaded = {path: load(path) for path in paths}
    rows = [
        (path.stem, main_path_words(nb), going_further_words(nb), len(parts(nb)))
        for path, nb in loaded.items()
    ]
    print(table(rows))
    if args.words:
        return 0
    failed = 0
    for path, nb in loaded.items():
        found = violations(nb)
        if found:
            failed += 1
            print(f"\n{_display(path)}: {len(found)} violation(s)")
            print("\n".join(f"  - {v}" for v in found))
    if failed:
        print(f"\n{failed} of {len(loaded)} notebook(s) break the main-path rules")
    else:
        print(f"\nall {len(loaded)} notebook(s) follow the main-path rules")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
