"""What each top-level statement of a notebook cell binds and reads (for :mod:`d2lgpu.references`).

A GPU reference is keyed by a cell's code and the earlier statements it reads
(``d2lgpu._cell_keys``); this module does the parsing under that: it cuts a cell's
source (IPython syntax translated) into its top-level statements and, for each one,
says which names it binds, and how, and which names it reads, now or later (inside a
function body, when the function is called). It is not a general Python analysis:
it answers only what the key needs, and it reads sources, never runs them.
"""

from __future__ import annotations

import ast
import functools
from typing import NamedTuple

__all__ = ["CALLS", "CHANGES", "IMPORTS", "MAGIC", "SETS", "Statement", "cell_body",
           "normalized", "python_source", "statements"]  # fmt: skip

MAGIC = "%%requires_gpu"


def cell_body(source: str) -> str:
    """The code of a ``%%requires_gpu`` cell without its first line (the whole source otherwise)."""
    if source.lstrip().startswith(MAGIC):
        return source.lstrip().partition("\n")[2]
    return source


def normalized(text: str) -> str:
    """``text`` without blank lines around it and without blanks at the end of its lines."""
    return "\n".join(line.rstrip() for line in text.strip().splitlines())


# Each cell is cut into its top-level statements. For each statement: the names it binds, and
# how (``SETS`` and ``IMPORTS`` replace what the name held; ``CHANGES`` may change it or
# bind it only on some paths, so the binding before it still counts; ``CALLS``: a method
# called on it, which may change it in place), and the names it reads: while it runs, or later
# (inside a function body, when the function is called).
SETS, IMPORTS, CHANGES, CALLS = "sets", "imports", "changes", "calls"


class Statement(NamedTuple):
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


python_source = _python_source  # public: tools/rekey_references.py parses cells as the key does


def _segment(lines: list[str], node: ast.stmt) -> str:
    """The statement's own source (decorators included, a comment after it left out)."""
    first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
    col = 0 if first < node.lineno else node.col_offset
    chunk = [line.encode() for line in lines[first - 1 : node.end_lineno]]
    chunk[-1] = chunk[-1][: node.end_col_offset]
    chunk[0] = chunk[0][col:]
    return normalized(b"".join(chunk).decode())


def _root_name(node):
    """``x`` for ``x``, ``x.a.b``, ``x[i].a``; None for anything else."""
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Starred)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _target_binds(target, binds: dict) -> None:
    if isinstance(target, ast.Name):
        binds[target.id] = SETS
    elif isinstance(target, (ast.Tuple, ast.List)):
        for elt in target.elts:
            _target_binds(elt, binds)
    elif isinstance(target, ast.Starred):
        _target_binds(target.value, binds)
    elif (name := _root_name(target)) is not None:  # x.a = ..., x[i] = ...: x changes
        binds.setdefault(name, CHANGES)


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
                binds[name] = CHANGES
    elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
        for alias in stmt.names:
            if alias.name != "*":
                binds[alias.asname or alias.name.split(".")[0]] = IMPORTS
    elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        binds[stmt.name] = SETS
    elif isinstance(stmt, ast.Expr):
        if (name := _method_call_root(stmt)) is not None:
            binds[name] = CALLS
        for node in _outside_functions(stmt):  # (y := ...) inside an expression
            if isinstance(node, ast.NamedExpr):
                binds[node.target.id] = CHANGES
    else:  # if, for, while, with, try, match: what they bind, they bind on some paths only
        for node in _outside_functions(stmt):
            found = {}
            if isinstance(node, ast.stmt):
                found = _binds(node)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
                found = {node.id: CHANGES}
            for name, kind in found.items():
                if kind != CALLS:
                    binds[name] = CHANGES
                else:
                    binds.setdefault(name, CALLS)
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
def statements(source: str) -> tuple[Statement, ...]:
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
            Statement(
                _segment(lines, stmt), _binds(stmt), frozenset(reads.now), frozenset(reads.later)
            )
        )
    return tuple(found)
