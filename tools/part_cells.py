"""What a notebook's Going-further parts are, for ``tools/main_path.py`` and
``tools/part_reads.py``: a cell's source and tags, the parts as runs of cells tagged
``going-further``, and the notebook without them (its main path).

Every function takes a notebook as JSON (``json.load``), so that tests build small ones.
"""

from __future__ import annotations

import json
from pathlib import Path

TAG = "going-further"


def load(path) -> dict:
    return json.loads(Path(path).read_text())


def source_of(cell: dict) -> str:
    source = cell.get("source", "")
    return source if isinstance(source, str) else "".join(source)


def tags_of(cell: dict) -> list[str]:
    return cell.get("metadata", {}).get("tags", [])


def is_going_further(cell: dict) -> bool:
    return TAG in tags_of(cell)


def parts(nb: dict) -> list[tuple[int, int]]:
    """Each Going-further part as ``(first, end)`` cell indices (``end`` excluded)."""
    found, start = [], None
    cells = nb["cells"]
    for i, cell in enumerate([*cells, None]):
        inside = cell is not None and is_going_further(cell)
        if inside and start is None:
            start = i
        elif not inside and start is not None:
            found.append((start, i))
            start = None
    return found


def main_path(nb: dict) -> dict:
    """A copy of the notebook without its Going-further cells."""
    return {**nb, "cells": [c for c in nb["cells"] if not is_going_further(c)]}


def where_is(cell: dict, index: int) -> str:
    return f"cell {index} (id {cell.get('id', '?')})"
