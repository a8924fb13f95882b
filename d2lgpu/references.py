"""GPU reference outputs: what a GPU-only notebook cell printed on a real GPU.

Most learners have no GPU, so a cell that starts with ``%%requires_gpu`` skips
on their machine. It then shows what it printed on a real GPU instead, in a
bordered block (:func:`reference_bundle`: HTML for JupyterLab, the same in
plain text for terminals and text-only readers) headed with where it came from::

    Recorded on NVIDIA H100 80GB HBM3 with torch 2.11.0+cu130, 2026-11-23
    recorded with torch 2.11.0; this machine has torch 2.14.1
        <what the cell printed there>

The second line appears only when the installed torch release differs.

A reference belongs to one version of a cell's code and of what it reads from
the cells above it. Chapters set their GPU sizes in an earlier cell
(``n = 4096 if on_gpu else 256``), so the key (:func:`cell_key`) is the SHA-256
of the cell's body (the source after the ``%%requires_gpu`` line) together with
the earlier statements it depends on: those that last bound each name the cell
reads, then the names those read, and so on (:func:`dependencies`). The key is
made from sources, never from values, so a CPU and a GPU compute the same one.
A cell whose code, or whose sizes above, changed since its GPU run finds no
reference and says so, rather than showing a stale one. What the key does not
see: state changed without binding a name (``torch.manual_seed(0)``, a method
called on a module), files a cell reads, and the package's own code.

In a notebook, the cells above are those the kernel ran before this one
(:mod:`d2lgpu.magics` keeps the list), in the order it ran them: top to
bottom, the order in which a GPU ran them and ``make outputs`` runs them.

Storage, one folder per GPU model, one file per notebook (``make gpu-check``
writes them; see ``docs/gpu-run.md``)::

    docs/results/<device>/cells/<folder>_<notebook>.json
    {"notebook": "notebooks/04_amp.ipynb",
     "cells": {"<nbformat cell id>": {"sha256": <key>, "body_sha256": ..., "reads": [...],
                                      "output": ..., "seconds": ...,
                                      "device": ..., "torch": ..., "cuda": ...,
                                      "date": ..., "origin": ...}}}

``reads`` lists the earlier statements the key covers, for the reader of the file.

What it is not: a test of the GPU outputs. A CPU run of a skipped cell prints
its reference block (or the no-reference line); ``make outputs`` stores that,
and nbval compares it on a CPU, so a reference that changed, or a cell whose
key no longer finds one, fails the suite until ``make outputs`` is run again.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import html
import json
import os
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import NamedTuple

__all__ = [
    "NO_REFERENCE",
    "OTHER_CELLS_ABOVE",
    "PROVENANCE_KEYS",
    "RESULTS_DIR",
    "RESULTS_ENV_VAR",
    "cell_body",
    "body_sha256",
    "cell_key",
    "dependencies",
    "device_slug",
    "earlier_sources",
    "body_has_reference",
    "find_reference",
    "format_reference",
    "load_references",
    "outputs_to_text",
    "record_reference",
    "reference_bundle",
    "reference_file",
    "results_root",
    "torch_release",
]

# The course's docs/results, next to the package in a checkout (absent from a wheel).
RESULTS_DIR = Path(__file__).resolve().parents[1] / "docs" / "results"
# Read the references from another folder instead (a test's, or a run not yet copied in).
RESULTS_ENV_VAR = "D2LGPU_RESULTS_DIR"
# What every reference records about where it came from.
PROVENANCE_KEYS = ("device", "torch", "cuda", "date", "origin")
MAGIC = "%%requires_gpu"
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
# The box around a reference in JupyterLab: inline styles only (no stylesheet to rely on),
# colours readable on the light and the dark theme alike.
_BOX = (
    "border: 1px solid #999; border-left: 4px solid #e69f00; padding: 0.3em 0.8em; margin: 0.2em 0"
)


def cell_body(source: str) -> str:
    """The code of a ``%%requires_gpu`` cell without its first line (the whole source otherwise)."""
    if source.lstrip().startswith(MAGIC):
        return source.lstrip().partition("\n")[2]
    return source


def body_sha256(body: str) -> str:
    """SHA-256 of a cell's body alone, trailing blanks ignored (see :func:`cell_key`)."""
    return hashlib.sha256(_normalized(body).encode()).hexdigest()


def _normalized(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.strip().splitlines())


# --- What a cell reads from the cells above it ----------------------------------------------
# Each cell is cut into its top-level statements. For each statement: the names it binds, and
# how (``_SETS`` and ``_IMPORTS`` replace what the name held; ``_CHANGES`` may change it or
# bind it only on some paths, so the binding before it still counts; ``_CALLS``: a method
# called on it, which may change it in place), and the names it reads: while it runs, or later
# (inside a function body, when the function is called).
_SETS, _IMPORTS, _CHANGES, _CALLS = "sets", "imports", "changes", "calls"


class _Statement(NamedTuple):
    text: str
    binds: dict
    reads_now: frozenset
    reads_later: frozenset


def _python_source(source: str) -> str:
    """A cell's source as Python: a ``%%requires_gpu`` cell's body; IPython syntax translated."""
    text = cell_body(source)
    try:
        from IPython.core.inputtransformer2 import TransformerManager
    except ImportError:  # no IPython: a line magic then makes the cell unparsable (no statements)
        return text
    return TransformerManager().transform_cell(text)


def _segment(lines: list[str], node: ast.stmt) -> str:
    """The statement's own source (decorators included, a comment after it left out)."""
    first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
    col = 0 if first < node.lineno else node.col_offset
    chunk = [line.encode() for line in lines[first - 1 : node.end_lineno]]
    chunk[-1] = chunk[-1][: node.end_col_offset]
    chunk[0] = chunk[0][col:]
    return _normalized(b"".join(chunk).decode())


def _root_name(node):
    """``x`` for ``x``, ``x.a.b``, ``x[i].a``; None for anything else."""
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Starred)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _target_binds(target, binds: dict) -> None:
    if isinstance(target, ast.Name):
        binds[target.id] = _SETS
    elif isinstance(target, (ast.Tuple, ast.List)):
        for elt in target.elts:
            _target_binds(elt, binds)
    elif isinstance(target, ast.Starred):
        _target_binds(target.value, binds)
    elif (name := _root_name(target)) is not None:  # x.a = ..., x[i] = ...: x changes
        binds.setdefault(name, _CHANGES)


def _method_call_root(stmt) -> str | None:
    """``x`` for a statement ``x.method(...)`` (or ``await x.method(...)``)."""
    value = stmt.value.value if isinstance(stmt.value, ast.Await) else stmt.value
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute):
        return _root_name(value.func)
    return None


def _outside_functions(node):
    """The nodes under ``node`` that run with it and bind in its namespace.

    A function's, a class's or a comprehension's own body is left out (its node is kept).
    """
    for child in ast.iter_child_nodes(node):
        yield child
        if not isinstance(child, _OWN_NAMESPACE):
            yield from _outside_functions(child)


_OWN_NAMESPACE = (
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.Lambda,
    ast.ClassDef,
    ast.ListComp,
    ast.SetComp,
    ast.GeneratorExp,
    ast.DictComp,
)


def _binds(stmt: ast.stmt) -> dict:
    binds: dict = {}
    if isinstance(stmt, ast.Assign):
        for target in stmt.targets:
            _target_binds(target, binds)
    elif isinstance(stmt, ast.AnnAssign):
        if stmt.value is not None:
            _target_binds(stmt.target, binds)
    elif isinstance(stmt, (ast.AugAssign, ast.Delete)):
        for target in stmt.targets if isinstance(stmt, ast.Delete) else [stmt.target]:
            if (name := _root_name(target)) is not None:
                binds[name] = _CHANGES
    elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
        for alias in stmt.names:
            if alias.name != "*":
                binds[alias.asname or alias.name.split(".")[0]] = _IMPORTS
    elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        binds[stmt.name] = _SETS
    elif isinstance(stmt, ast.Expr):
        if (name := _method_call_root(stmt)) is not None:
            binds[name] = _CALLS
        for node in _outside_functions(stmt):  # (y := ...) inside an expression
            if isinstance(node, ast.NamedExpr):
                binds[node.target.id] = _CHANGES
    else:  # if, for, while, with, try, match: what they bind, they bind on some paths only
        for node in _outside_functions(stmt):
            found = {}
            if isinstance(node, ast.stmt):
                found = _binds(node)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
                found = {node.id: _CHANGES}
            for name, kind in found.items():
                if kind != _CALLS:
                    binds[name] = _CHANGES
                else:
                    binds.setdefault(name, _CALLS)
    return binds


class _Reads:
    """The names a statement reads before it binds them itself: now, and later (in functions)."""

    def __init__(self):
        self.now: set[str] = set()
        self.later: set[str] = set()

    def block(self, body, bound: set) -> None:
        for stmt in body:
            self.statement(stmt, bound)

    def statement(self, s, bound: set) -> None:
        if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for node in [*s.decorator_list, *_argument_expressions(s.args), s.returns]:
                self.expr(node, bound)
            self.function(s.args, s.body)
            bound.add(s.name)
        elif isinstance(s, ast.ClassDef):
            for node in [*s.decorator_list, *s.bases, *(k.value for k in s.keywords)]:
                self.expr(node, bound)
            self.block(s.body, set(bound))  # its body runs now, in a namespace of its own
            bound.add(s.name)
        elif isinstance(s, ast.Assign):
            self.expr(s.value, bound)
            for target in s.targets:
                self.target(target, bound)
        elif isinstance(s, ast.AugAssign):
            self.expr(s.value, bound)
            self.expr(s.target, bound, load=True)  # x += 1 reads x
        elif isinstance(s, ast.AnnAssign):
            self.expr(s.annotation, bound)
            if s.value is not None:
                self.expr(s.value, bound)
                self.target(s.target, bound)
        elif isinstance(s, (ast.For, ast.AsyncFor)):
            self.expr(s.iter, bound)
            inner = set(bound)
            self.target(s.target, inner)
            self.block(s.body, inner)
            self.block(s.orelse, set(bound))
        elif isinstance(s, (ast.While, ast.If)):
            self.expr(s.test, bound)
            self.block(s.body, set(bound))
            self.block(s.orelse, set(bound))
        elif isinstance(s, (ast.With, ast.AsyncWith)):
            for item in s.items:
                self.expr(item.context_expr, bound)
                if item.optional_vars is not None:
                    self.target(item.optional_vars, bound)
            self.block(s.body, bound)
        elif isinstance(s, (ast.Try, ast.TryStar)):
            self.block(s.body, set(bound))
            for handler in s.handlers:
                self.expr(handler.type, bound)
                inner = set(bound) | ({handler.name} if handler.name else set())
                self.block(handler.body, inner)
            self.block(s.orelse, set(bound))
            self.block(s.finalbody, set(bound))
        elif isinstance(s, (ast.Import, ast.ImportFrom)):
            bound.update(alias.asname or alias.name.split(".")[0] for alias in s.names)
        else:  # expressions, assert, del, return, raise, match, ...: every name read now
            self.expr(s, bound)

    def target(self, node, bound: set) -> None:
        if isinstance(node, ast.Name):
            bound.add(node.id)
        elif isinstance(node, (ast.Tuple, ast.List)):
            for elt in node.elts:
                self.target(elt, bound)
        elif isinstance(node, ast.Starred):
            self.target(node.value, bound)
        else:  # x.a = ..., x[i] = ...: reads x (and i)
            self.expr(node, bound, load=True)

    def expr(self, node, bound: set, local: frozenset = frozenset(), load: bool = False) -> None:
        if node is None:
            return
        if isinstance(node, ast.Name):
            if (load or isinstance(node.ctx, (ast.Load, ast.Del))) and node.id not in local:
                if node.id not in bound:
                    self.now.add(node.id)
            return
        if isinstance(node, ast.NamedExpr):
            self.expr(node.value, bound, local)
            bound.add(node.target.id)
            return
        if isinstance(node, ast.Lambda):
            for default in _argument_expressions(node.args):
                self.expr(default, bound, local)
            self.function(node.args, [node.body])
            return
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            inner = set(local)
            for i, gen in enumerate(node.generators):
                # the first iterable is evaluated outside the comprehension's own scope
                self.expr(gen.iter, bound, local if i == 0 else frozenset(inner))
                inner |= {n.id for n in ast.walk(gen.target) if isinstance(n, ast.Name)}
                for cond in gen.ifs:
                    self.expr(cond, bound, frozenset(inner))
            parts = [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
            for part in parts:
                self.expr(part, bound, frozenset(inner))
            return
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            self.statement(node, bound)
            return
        for child in ast.iter_child_nodes(node):
            self.expr(child, bound, local, load and isinstance(child, ast.expr))

    def function(self, args: ast.arguments, body: list) -> None:
        """Names a function body reads from outside itself: read when it is called."""
        local: set[str] = set()
        declared_global: set[str] = set()
        loaded: set[str] = set()
        for part in [args, *body]:
            for node in ast.walk(part):
                if isinstance(node, ast.arg):
                    local.add(node.arg)
                elif isinstance(node, ast.Name):
                    (loaded if isinstance(node.ctx, ast.Load) else local).add(node.id)
                elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    local.add(node.name)
                elif isinstance(node, (ast.Import, ast.ImportFrom)):
                    local.update(a.asname or a.name.split(".")[0] for a in node.names)
                elif isinstance(node, (ast.Global, ast.Nonlocal)):
                    declared_global.update(node.names)
        self.later |= loaded - (local - declared_global)


def _argument_expressions(args: ast.arguments) -> list:
    """What a ``def`` evaluates when it runs: defaults and annotations."""
    every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
    annotations = [a.annotation for a in every if a is not None and a.annotation is not None]
    return [*args.defaults, *(d for d in args.kw_defaults if d is not None), *annotations]


@functools.lru_cache(maxsize=1024)
def _statements(source: str) -> tuple[_Statement, ...]:
    """The top-level statements of one cell; none where it is not valid Python (it never ran)."""
    text = _python_source(source)
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return ()
    lines = text.splitlines(keepends=True)
    found = []
    for stmt in tree.body:
        reads = _Reads()
        reads.statement(stmt, set())
        found.append(
            _Statement(
                _segment(lines, stmt), _binds(stmt), frozenset(reads.now), frozenset(reads.later)
            )
        )
    return tuple(found)


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
    sequence = [stmt for source in earlier for stmt in _statements(source)]
    start = len(sequence)
    sequence += _statements(body)
    needed = set(range(start, len(sequence)))
    queue = list(needed)

    def look_up(name: str, before: int) -> None:
        calls = []  # x.method(...) since the binding: kept unless x is a module
        for i in range(before - 1, -1, -1):
            kind = sequence[i].binds.get(name)
            if kind == _CALLS:
                calls.append(i)
            elif kind is not None:
                add([i])
                if kind == _IMPORTS:
                    return
                if kind == _SETS:
                    break
        add(calls)

    def add(indices) -> None:
        for i in indices:
            if i not in needed:
                needed.add(i)
                queue.append(i)

    # What the cell itself binds outright: its own functions read that, not the cells above.
    own = {n for s in sequence[start:] for n, kind in s.binds.items() if kind in (_SETS, _IMPORTS)}
    while queue:
        i = queue.pop()
        for name in sequence[i].reads_now:
            look_up(name, i)
        for name in sequence[i].reads_later:
            if i < start or name not in own:
                look_up(name, start)
    return [sequence[i].text for i in sorted(needed) if i < start]


def _key_text(body: str, earlier: Iterable[str]) -> str:
    text = _normalized(cell_body(body))
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


def device_slug(name: str) -> str:
    """A folder name for a GPU model: ``"NVIDIA H100 80GB HBM3"`` -> ``"NVIDIA-H100-80GB-HBM3"``."""
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"name must be a non-empty device name, got {name!r}")
    return re.sub(r"[^A-Za-z0-9.]+", "-", name.strip()).strip("-")


def reference_file(results_dir: Path, device_name: str, notebook: str) -> Path:
    """Where the references of ``notebook`` (a path like ``notebooks/04_amp.ipynb``) go."""
    parts = Path(notebook).with_suffix("").parts[-2:]
    return Path(results_dir) / device_slug(device_name) / "cells" / ("_".join(parts) + ".json")


def outputs_to_text(outputs: list) -> str:
    """What a reader saw: streams, plain-text results and errors; figures as a placeholder."""
    pieces = []
    for out in outputs:
        kind = out.get("output_type")
        if kind == "stream":
            text = out.get("text", "")
            pieces.append(text if isinstance(text, str) else "".join(text))
        elif kind in ("execute_result", "display_data"):
            data = out.get("data", {})
            if "image/png" in data or "image/svg+xml" in data:
                pieces.append("[a figure]\n")
            elif "text/plain" in data:
                text = data["text/plain"]
                pieces.append((text if isinstance(text, str) else "".join(text)) + "\n")
        elif kind == "error":
            pieces.append(f"{out.get('ename')}: {out.get('evalue')}\n")
    return "".join(pieces)


def record_reference(
    results_dir,
    notebook: str,
    cell_id: str,
    source: str,
    output: str,
    provenance: dict,
    *,
    earlier: Iterable[str] = (),
    **extra,
) -> Path:
    """Store what cell ``cell_id`` of ``notebook`` printed, under its :func:`cell_key`.

    ``earlier``: the sources of the code cells run before it, oldest first.
    """
    missing = [k for k in PROVENANCE_KEYS if not provenance.get(k)]
    if missing:
        raise ValueError(f"provenance must give {', '.join(PROVENANCE_KEYS)}; missing {missing}")
    earlier = list(earlier)
    path = reference_file(results_dir, provenance["device"], notebook)
    data: dict = (
        json.loads(path.read_text()) if path.exists() else {"notebook": notebook, "cells": {}}
    )
    data["cells"][cell_id] = {
        "sha256": cell_key(source, earlier),
        "body_sha256": body_sha256(cell_body(source)),
        "reads": dependencies(source, earlier),
        "output": output,
        **{k: provenance[k] for k in PROVENANCE_KEYS},
        **extra,
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    return path


def results_root() -> Path:
    """Where references are read from: ``$D2LGPU_RESULTS_DIR`` if set, else :data:`RESULTS_DIR`."""
    return Path(os.environ.get(RESULTS_ENV_VAR) or RESULTS_DIR)


def load_references(results_dir=None) -> dict[str, list[dict]]:
    """Every stored reference, by key: ``{sha256: [entry, ...]}`` (one per device)."""
    root = Path(results_dir) if results_dir is not None else results_root()
    found: dict[str, list[dict]] = {}
    for path in sorted(root.glob("*/cells/*.json")):
        data = json.loads(path.read_text())
        for cell_id, entry in data.get("cells", {}).items():
            entry = dict(entry, cell_id=cell_id, notebook=data.get("notebook", path.stem))
            found.setdefault(entry["sha256"], []).append(entry)
    return found


def find_reference(body: str, results_dir=None, *, earlier: Iterable[str] = ()) -> list[dict]:
    """The references recorded for this cell body after this earlier code (see :func:`cell_key`).

    Empty if the cell's code, or the earlier code it reads, changed since its GPU run.
    """
    return load_references(results_dir).get(cell_key(body, earlier), [])


def body_has_reference(body: str, results_dir=None) -> bool:
    """Whether some GPU ran this cell's code, whatever ran above it."""
    digest = body_sha256(cell_body(body))
    return any(
        entry.get("body_sha256", key) == digest
        for key, entries in load_references(results_dir).items()
        for entry in entries
    )


def torch_release(version: str) -> str:
    """The release part of a torch version: ``"2.11.0+cu130"`` -> ``"2.11.0"``."""
    match = re.match(r"\d+(\.\d+)*", version.strip())
    return match.group() if match else version.strip()


def _heading(entry: dict) -> str:
    """The caption of one reference, in the lab and in the book alike (the book shows it
    without the skip line above it, tools/site.py)."""
    return f"Recorded on {entry['device']} with torch {entry['torch']}, {entry['date']}"


def _torch_note(entry: dict, installed_torch: str | None) -> str:
    """One line when the reference's torch release is not the installed one, else ``""``."""
    if installed_torch is None:
        return ""
    recorded, here = torch_release(str(entry["torch"])), torch_release(installed_torch)
    if recorded == here:
        return ""
    return f"recorded with torch {recorded}; this machine has torch {here}"


def format_reference(entries: list[dict], installed_torch: str | None = None) -> str:
    """The plain text a skipped cell shows: each GPU's output under its provenance, or why none.

    ``installed_torch`` (``torch.__version__``) adds a line where the reference's torch
    release differs from it; ``None`` leaves the versions uncompared.
    """
    if not entries:
        return NO_REFERENCE
    blocks = []
    for e in entries:
        lines = [_heading(e)]
        if note := _torch_note(e, installed_torch):
            lines.append(note)
        body = e["output"].rstrip("\n") or "(nothing)"
        lines += ["    " + line for line in body.splitlines()]
        blocks.append("\n".join(lines))
    return "\n".join(blocks)


def reference_bundle(entries: list[dict], installed_torch: str | None = None) -> dict[str, str]:
    """The display of a skipped cell's references: ``{"text/html": ..., "text/plain": ...}``.

    The HTML draws each reference as a bordered box headed with its provenance, so it
    does not read as a measurement of this machine; the plain text says the same for
    terminals, nbval and the site. Everything comes from the stored references and the
    installed torch: nothing that changes from one run to the next.
    """
    if not entries:
        raise ValueError("no references to show: say NO_REFERENCE instead")
    boxes = []
    for e in entries:
        note = _torch_note(e, installed_torch)
        body = e["output"].rstrip("\n") or "(nothing)"
        boxes.append(
            f'<div style="{_BOX}">'
            f"<strong>{html.escape(_heading(e))}</strong>"
            + (f"<br><em>{html.escape(note)}</em>" if note else "")
            + f'<pre style="margin: 0.3em 0 0">{html.escape(body)}</pre></div>'
        )
    return {"text/html": "".join(boxes), "text/plain": format_reference(entries, installed_torch)}
