"""The key a GPU reference is stored under: a cell's code and the earlier statements it reads.

Chapters set their GPU sizes in an earlier cell (``n = 4096 if on_gpu else 256``), so the
key (:func:`cell_key`) is the SHA-256 of the cell's body (the source after the
``%%requires_gpu`` line) together with the earlier statements it depends on: those that
last bound each name the cell reads, then the names those read, and so on
(:func:`dependencies`, on the statements of ``d2lgpu._cell_statements``). The key is made
from sources, never from values, so a CPU and a GPU compute the same one. What it does not
see: state changed without binding a name (``torch.manual_seed(0)``, a method called on a
module), files a cell reads, and the package's own code. Where references are stored and
how they are shown is elsewhere (:mod:`d2lgpu.references`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence

from ._cell_statements import CALLS, IMPORTS, SETS, cell_body, normalized, statements

__all__ = ["body_sha256", "cell_key", "dependencies", "earlier_sources"]


def body_sha256(body: str) -> str:
    """SHA-256 of a cell's body alone, trailing blanks ignored (see :func:`cell_key`)."""
    return hashlib.sha256(normalized(body).encode()).hexdigest()


def dependencies(body: str, earlier: Iterable[str] = ()) -> list[str]:
    """The statements of the cells ``earlier`` (sources, oldest first) that ``body`` depends on.

    For each name the cell reads, the statement above it that last bound that name; then the
    same for what those statements read, and so on. A binding on some paths only (inside an
    ``if``), or a change (``x[0] = 1``, ``x += 1``, ``x.method()``), keeps the search going
    to the binding before it; a method called on an imported module does not count.
    A name read inside a function body is looked up from the top of the cell (the function
    runs when the cell calls it), unless the cell binds it itself (a function the cell defines
    then reads the cell's own binding).
    """
    sequence = [stmt for source in earlier for stmt in statements(source)]
    start = len(sequence)
    sequence += statements(body)
    needed = set(range(start, len(sequence)))
    queue = list(needed)

    def look_up(name: str, before: int) -> None:
        calls = []  # x.method(...) since the binding: kept unless x is a module
        for i in range(before - 1, -1, -1):
            kind = sequence[i].binds.get(name)
            if kind == CALLS:
                calls.append(i)
            elif kind is not None:
                add([i])
                if kind == IMPORTS:
                    return
                if kind == SETS:
                    break
        add(calls)

    def add(indices) -> None:
        for i in indices:
            if i not in needed:
                needed.add(i)
                queue.append(i)

    # What the cell itself binds outright: its own functions read that, not the cells above.
    own = {n for s in sequence[start:] for n, kind in s.binds.items() if kind in (SETS, IMPORTS)}
    while queue:
        i = queue.pop()
        for name in sequence[i].reads_now:
            look_up(name, i)
        for name in sequence[i].reads_later:
            if i < start or name not in own:
                look_up(name, start)
    return [sequence[i].text for i in sorted(needed) if i < start]


def _key_text(body: str, earlier: Iterable[str]) -> str:
    text = normalized(cell_body(body))
    reads = dependencies(body, earlier)
    if not reads:
        return text
    return text + "\n\n# read from the cells above:\n" + "\n".join(reads)


def cell_key(body: str, earlier: Iterable[str] = ()) -> str:
    """The key a reference is stored under: SHA-256 of the body and the earlier code it reads.

    ``body`` is the cell's code (with or without its ``%%requires_gpu`` line), ``earlier``
    the sources of the cells run before it, oldest first. Without such code it is
    :func:`body_sha256` of the body. Trailing blanks and comments after a statement of an
    earlier cell are not part of it.
    """
    return hashlib.sha256(_key_text(body, earlier).encode()).hexdigest()


def earlier_sources(cells: Sequence, cell_id: str) -> list[str]:
    """The sources of the code cells above the cell ``cell_id`` of a notebook's ``cells``."""
    sources: list[str] = []
    for cell in cells:
        if cell.get("id") == cell_id:
            return sources
        if cell.get("cell_type") == "code":
            source = cell.get("source", "")
            sources.append(source if isinstance(source, str) else "".join(source))
    raise ValueError(f"cell_id must be the id of one of the notebook's cells, got {cell_id!r}")
