"""The main path never depends on a Going-further part (``tools/main_path.py``'s last two
rules), read with the statement analysis of :mod:`d2lgpu._cell_statements`:

* :func:`reads_from_parts`: a main-path code cell reads a name that only Going-further cells
  above it bind, or that one of them rebinds or changes after the main path bound it;
* :func:`changed_gpu_keys`: a main-path GPU cell's reference key
  (:func:`d2lgpu.references.cell_key`) changes when the Going-further cells are removed.
"""

from __future__ import annotations

import sys
from pathlib import Path

from part_cells import is_going_further, main_path, source_of, tags_of, where_is

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from d2lgpu import _cell_statements as statements_of  # noqa: E402
from d2lgpu import references  # noqa: E402
from d2lgpu.magics import gpus_needed  # noqa: E402

# How a binding in d2lgpu._cell_statements counts: a method call (x.m()) binds nothing.
_BINDING_KINDS = (statements_of.SETS, statements_of.IMPORTS, statements_of.CHANGES)


def _cell_reads(statements) -> set[str]:
    """The names a cell reads from the cells above it (before binding them itself)."""
    reads: set[str] = set()
    bound: set[str] = set()
    own = {n for s in statements for n, k in s.binds.items() if k in _BINDING_KINDS}
    for stmt in statements:
        reads |= stmt.reads_now - bound
        reads |= stmt.reads_later - own  # a function the cell calls later reads these
        bound |= {n for n, k in stmt.binds.items() if k in _BINDING_KINDS}
    return reads


def reads_from_parts(nb: dict) -> list[str]:
    """Main-path code cells that read what a Going-further cell above them bound or changed.

    Either only Going-further cells bind the name, or one rebinds or changes it (``x = ...``,
    ``x[0] = ...``, ``x.method()``; a function called on an imported module does not count)
    after the main path bound it: without the parts, the cell would fail or read another value.
    """
    cells = nb["cells"]
    found = []
    main_bound: set[str] = set()
    further_bound: dict[str, int] = {}  # name -> the first part cell that binds it
    last_touched: dict[str, int] = {}  # name -> the last cell that bound or changed it
    imported: set[str] = set()  # names an import bound last
    for i, cell in enumerate(cells):
        if cell.get("cell_type") != "code":
            continue
        statements = statements_of.statements(source_of(cell))
        further = is_going_further(cell)
        if not further:
            for name in sorted(_cell_reads(statements)):
                if name not in main_bound and name in further_bound:
                    j = further_bound[name]
                    found.append(
                        f"{where_is(cell, i)} reads {name!r}, which only Going-further cells bind "
                        f"(first {where_is(cells[j], j)}): bind it in a main-path cell"
                    )
                elif name in last_touched and is_going_further(cells[last_touched[name]]):
                    j = last_touched[name]
                    found.append(
                        f"{where_is(cell, i)} reads {name!r}, which the Going-further "
                        f"{where_is(cells[j], j)} rebinds or changes: without the part it would "
                        "read another value (use another name in the part)"
                    )
        for stmt in statements:
            for name, kind in stmt.binds.items():
                if kind == statements_of.CALLS and name in imported:
                    continue
                if kind == statements_of.IMPORTS:
                    imported.add(name)
                elif kind == statements_of.SETS:
                    imported.discard(name)
                last_touched[name] = i
                if kind in _BINDING_KINDS:
                    (further_bound.setdefault(name, i) if further else main_bound.add(name))
    return found


def gpu_keys(nb: dict) -> dict[str, str]:
    """``{cell id: reference key}`` of the notebook's GPU cells (see ``references.cell_key``)."""
    keys, earlier = {}, []
    for cell in nb["cells"]:
        if cell.get("cell_type") != "code":
            continue
        source = source_of(cell)
        if gpus_needed(tags_of(cell)):
            keys[cell.get("id")] = references.cell_key(references.cell_body(source), earlier)
        earlier.append(source)
    return keys


def changed_gpu_keys(nb: dict) -> list[str]:
    """Main-path GPU cells whose reference key changes when the Going-further cells go."""
    before, after = gpu_keys(nb), gpu_keys(main_path(nb))
    index = {c.get("id"): i for i, c in enumerate(nb["cells"])}
    return [
        f"{where_is(nb['cells'][index[cell_id]], index[cell_id])} is a GPU cell whose reference "
        "key changes without the Going-further cells: it reads code in them (move that code "
        "to a main-path cell above it)"
        for cell_id, key in after.items()
        if before[cell_id] != key
    ]
