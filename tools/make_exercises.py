"""Generate exercises/ from solutions/, the single source of the exercises.

    .venv/bin/python tools/make_exercises.py           # write exercises/ (what `make exercises` runs)
    .venv/bin/python tools/make_exercises.py --check   # exit 1 and list the stale files

For every ``solutions/NN_name.ipynb`` it writes ``exercises/NN_name.ipynb``
with the same cells, in the same order and with the same cell ids (so that a
regeneration changes only what changed), where:

* code between ``### BEGIN SOLUTION`` and ``### END SOLUTION`` is replaced by
  ``raise NotImplementedError("your code here")`` at the indentation of the
  BEGIN marker, or, when the block has an ``### EXERCISE`` part, by that part
  with one leading ``# `` removed from each line (for a starting point that
  runs, such as the single-process script of chapter 5);
* markdown between ``<!-- BEGIN SOLUTION -->`` and ``<!-- END SOLUTION -->``
  is removed (worked answers to open questions);
* outputs and execution counts are cleared, cell metadata keeps only the
  ``tags`` and whether JupyterLab shows the source collapsed
  (``jupyter.source_hidden``, as for the set-up cell), notebook metadata only
  the kernelspec and the language name.

Every ``solutions/*.py`` becomes ``exercises/*.py`` by the same rules (there
a block without an ``### EXERCISE`` part would become a stub). Files in
exercises/ without a source in solutions/ are reported as stale.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
BEGIN, EXERCISE, END = "### BEGIN SOLUTION", "### EXERCISE", "### END SOLUTION"
MD_BEGIN, MD_END = "<!-- BEGIN SOLUTION -->", "<!-- END SOLUTION -->"
STUB = 'raise NotImplementedError("your code here")'


class MarkerError(ValueError):
    """Unbalanced or malformed solution markers; the message says where."""


def _uncomment(line: str, where: str) -> str:
    body = line.lstrip()
    indent = line[: len(line) - len(body)]
    if not body:
        return ""
    if body == "#":
        return ""
    if not body.startswith("# "):
        raise MarkerError(f"{where}: every line of an {EXERCISE} part must be a comment: {line!r}")
    return indent + body[2:]


def strip_code(source: str, where: str = "code") -> str:
    """Replace each solution block of ``source`` by its stub or its exercise part."""
    out: list[str] = []
    lines = source.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if stripped in (EXERCISE, END):
            raise MarkerError(f"{where}, line {i + 1}: {stripped!r} without {BEGIN!r}")
        if stripped != BEGIN:
            out.append(line)
            i += 1
            continue
        indent = line[: len(line) - len(line.lstrip())]
        start, exercise = i, None
        i += 1
        while i < len(lines) and lines[i].strip() != END:
            if lines[i].strip() == BEGIN:
                raise MarkerError(f"{where}, line {i + 1}: nested {BEGIN!r}")
            if lines[i].strip() == EXERCISE:
                if exercise is not None:
                    raise MarkerError(f"{where}, line {i + 1}: two {EXERCISE!r} in one block")
                exercise = []
            elif exercise is not None:
                exercise.append(_uncomment(lines[i], f"{where}, line {i + 1}"))
            i += 1
        if i == len(lines):
            raise MarkerError(f"{where}, line {start + 1}: {BEGIN!r} without {END!r}")
        out += [indent + STUB] if exercise is None else exercise
        i += 1  # past END
        if (
            exercise == []
            and out
            and not out[-1].strip()
            and i < len(lines)
            and not lines[i].strip()
        ):
            out.pop()  # an empty part between blank lines: keep one blank line, not two
    return "\n".join(out)


def strip_markdown(source: str, where: str = "markdown") -> str:
    """Remove the solution-only parts of a markdown cell."""
    out: list[str] = []
    inside, removed = None, False
    for n, line in enumerate(source.split("\n"), 1):
        if line.strip() == MD_BEGIN:
            if inside is not None:
                raise MarkerError(f"{where}, line {n}: nested {MD_BEGIN!r}")
            inside = n
        elif line.strip() == MD_END:
            if inside is None:
                raise MarkerError(f"{where}, line {n}: {MD_END!r} without {MD_BEGIN!r}")
            inside, removed = None, True
        elif inside is None:
            if removed and not line.strip() and (not out or not out[-1].strip()):
                continue  # the blank lines around a removed part: keep one
            removed = False
            out.append(line)
    if inside is not None:
        raise MarkerError(f"{where}, line {inside}: {MD_BEGIN!r} without {MD_END!r}")
    return "\n".join(out).strip("\n")


def exercise_notebook(solution: Path) -> str:
    """The text of the exercise notebook generated from ``solution``."""
    nb = nbformat.read(solution, as_version=4)
    ex = nbformat.v4.new_notebook()
    ex.metadata = {
        "kernelspec": dict(nb.metadata.get("kernelspec", {})),
        "language_info": {"name": nb.metadata.get("language_info", {}).get("name", "python")},
    }
    for n, cell in enumerate(nb.cells):
        where = f"{solution.name}, cell {n} (id {cell.get('id')})"
        if cell.cell_type == "code":
            new = nbformat.v4.new_code_cell(strip_code(cell.source, where))
        elif cell.cell_type == "markdown":
            new = nbformat.v4.new_markdown_cell(strip_markdown(cell.source, where))
        else:
            new = nbformat.v4.new_raw_cell(cell.source)
        new.id = cell.id  # nbformat would make up a random one: every run a diff
        tags = cell.metadata.get("tags")
        if tags:
            new.metadata["tags"] = list(tags)
        if cell.metadata.get("jupyter", {}).get("source_hidden"):
            new.metadata["jupyter"] = {"source_hidden": True}
        ex.cells.append(new)
    nbformat.validate(ex)
    text = nbformat.writes(ex)
    return text if text.endswith("\n") else text + "\n"


def exercise_script(solution: Path) -> str:
    """The text of the exercise script generated from ``solution`` (a .py file)."""
    return strip_code(solution.read_text(), solution.name)


def expected(solutions: Path) -> dict[str, str]:
    """``{file name: text}`` of every file exercises/ should hold."""
    files = {}
    for path in sorted(solutions.glob("*.ipynb")):
        files[path.name] = exercise_notebook(path)
    for path in sorted(solutions.glob("*.py")):
        files[path.name] = exercise_script(path)
    return files


def stale(solutions: Path, exercises: Path) -> list[str]:
    """Describe each file of ``exercises`` that differs from what ``solutions`` generates."""
    want = expected(solutions)
    problems = []
    for name, text in want.items():
        target = exercises / name
        if not target.exists():
            problems.append(f"{target}: missing")
        elif target.read_text() != text:
            problems.append(f"{target}: differs from what {solutions / name} generates")
    for path in sorted(exercises.glob("*")):
        if path.is_file() and path.suffix in (".ipynb", ".py") and path.name not in want:
            problems.append(f"{path}: has no source in {solutions}/")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only report stale files (exit 1)")
    parser.add_argument("--solutions", type=Path, default=ROOT / "solutions")
    parser.add_argument("--exercises", type=Path, default=ROOT / "exercises")
    args = parser.parse_args(argv)
    try:
        if args.check:
            problems = stale(args.solutions, args.exercises)
            for problem in problems:
                print(problem)
            if problems:
                print("exercises/ is stale: run `make exercises` and commit the result")
                return 1
            print(f"{args.exercises}: up to date with {args.solutions}")
            return 0
        args.exercises.mkdir(parents=True, exist_ok=True)
        for name, text in expected(args.solutions).items():
            target = args.exercises / name
            if not target.exists() or target.read_text() != text:
                target.write_text(text)
                print(f"wrote {target}")
    except MarkerError as error:
        print(f"solution markers: {error}")
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
