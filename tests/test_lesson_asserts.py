"""Every ``assert`` in lesson code says what it expected: it carries a non-empty message.

A bare ``assert fast < slow`` that fails on a learner's machine shows only
``AssertionError``, and the learner thinks they broke something. The message names the
expected and the measured values (CONTRIBUTING.md). This walks the code cells of
``notebooks/`` and ``solutions/`` (``exercises/`` is generated from ``solutions/``) with
``ast``, after turning IPython lines (``%magic``, ``!shell``) into ``pass``.
"""

import ast
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb")) + sorted(
    (ROOT / "solutions").glob("*.ipynb")
)


def python_of(source: str) -> str:
    """The cell as Python: each line that starts with ``%`` or ``!`` becomes ``pass``.

    Line numbers stay those of the cell (a ``pass`` keeps an indented block valid).
    """
    lines = []
    for line in source.splitlines():
        body = line.lstrip()
        lines.append(line[: len(line) - len(body)] + "pass" if body[:1] in ("%", "!") else line)
    return "\n".join(lines)


def _empty(message: ast.expr) -> bool:
    """A message that says nothing: ``""``, ``"  "``, ``f""``."""
    if isinstance(message, ast.Constant):
        return isinstance(message.value, str) and not message.value.strip()
    if isinstance(message, ast.JoinedStr):
        return all(isinstance(v, ast.Constant) and not str(v.value).strip() for v in message.values)
    return False


def silent_asserts(source: str) -> list[tuple[int, str]]:
    """``(line, why)`` for each assert of ``source`` without a message, or with an empty one.

    Raises SyntaxError when the cell is not Python once its IPython lines are dropped.
    """
    found = []
    for node in ast.walk(ast.parse(python_of(source))):
        if isinstance(node, ast.Assert):
            if node.msg is None:
                found.append((node.lineno, "no message"))
            elif _empty(node.msg):
                found.append((node.lineno, "an empty message"))
    return sorted(found)


def notebook_problems(path: Path, root: Path = ROOT) -> list[str]:
    nb = json.loads(path.read_text())
    problems = []
    for cell in nb["cells"]:
        if cell["cell_type"] != "code":
            continue
        source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        where = f"{path.relative_to(root)} cell {cell.get('id')}"
        try:
            found = silent_asserts(source)
        except SyntaxError as error:
            problems.append(f"{where} line {error.lineno}: not Python ({error.msg})")
            continue
        lines = source.splitlines()
        problems += [
            f"{where} line {line}: an assert with {why}: {lines[line - 1].strip()[:80]}"
            for line, why in found
        ]
    return problems


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_lesson_assert_says_what_it_expected(path):
    problems = notebook_problems(path)
    assert not problems, (
        f"{len(problems)} assert(s) without a message; give each one that names the expected "
        'and the measured values, e.g. assert a == b, f"expected {b}, got {a}":\n'
        + "\n".join(problems)
    )


# --- The walk itself, on small cells -------------------------------------------------------


@pytest.mark.parametrize(
    "source, expected",
    [
        ("assert x", [(1, "no message")]),
        ("assert x, ''", [(1, "an empty message")]),
        ('assert x, "   \\n"', [(1, "an empty message")]),
        ('assert x, f""', [(1, "an empty message")]),
        ('assert x, f" "', [(1, "an empty message")]),
        ("y = 1\nif y:\n    assert y > 0", [(3, "no message")]),
        ("def f(t):\n    assert t.ndim == 2\n    return t", [(2, "no message")]),
        ("class C:\n    def m(self):\n        assert self", [(3, "no message")]),
        ("x = [1 for _ in range(3)]\nassert x, 'x'\nassert not x", [(3, "no message")]),
        ("%%requires_gpu\nassert torch.cuda.is_available()", [(2, "no message")]),
        ("%timeit f()\n!ls\nassert ok", [(3, "no message")]),
        ("for i in range(2):\n    %time f(i)\n    assert i < 2", [(3, "no message")]),
    ],
)
def test_silent_asserts_are_found_with_their_line(source, expected):
    assert silent_asserts(source) == expected


@pytest.mark.parametrize(
    "source",
    [
        'assert x, f"expected 3, got {x}"',
        "assert x, 'x must be set'",
        "assert x, message",  # a name: what it holds is the author's business
        "assert x, ('expected ' + str(y))",
        'assert a == b, f"{a} != {b}"',
        "%%requires_gpu\nassert torch.cuda.is_available(), 'needs a GPU'",
        "text = 'assert x'  # in a string: not an assert",
        "# assert x\nx = 1",
    ],
)
def test_asserts_with_a_message_pass(source):
    assert silent_asserts(source) == []


def test_a_notebook_names_the_cell_and_the_line(tmp_path):
    nb = {
        "cells": [
            {"cell_type": "markdown", "id": "m1", "metadata": {}, "source": "assert x"},
            {"cell_type": "code", "id": "ok1", "metadata": {}, "source": ["assert a, 'a'\n"]},
            {"cell_type": "code", "id": "bad1", "metadata": {}, "source": ["x = 1\n", "assert x"]},
            {"cell_type": "code", "id": "bad2", "metadata": {}, "source": "def f(:\n  pass"},
        ]
    }
    path = tmp_path / "notebooks" / "02_x.ipynb"
    path.parent.mkdir()
    path.write_text(json.dumps(nb))
    problems = notebook_problems(path, root=tmp_path)
    assert len(problems) == 2, problems
    assert (
        problems[0] == "notebooks/02_x.ipynb cell bad1 line 2: an assert with no message: assert x"
    )
    assert problems[1].startswith("notebooks/02_x.ipynb cell bad2 line 1: not Python")
