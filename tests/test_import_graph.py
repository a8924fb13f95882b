"""The package's imports: no cycle, and every module imports alone, in any order."""

import ast
import os
import sys
import textwrap
from pathlib import Path

import pytest
from ddp_helpers.procs import fresh_python

PACKAGE = Path(__file__).resolve().parent.parent / "d2lgpu"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imports_of(name: str, path: Path) -> set[str]:
    """The d2lgpu modules that ``name`` imports, in any of its import statements.

    A package's ``__init__`` that imports its own modules is not counted as a cycle with
    them: the implicit import of a parent package is not an edge here.
    """
    known = modules()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join(anchor + ([node.module] if node.module else []))
            targets = [base] + [f"{base}.{alias.name}" for alias in node.names]
        else:
            continue
        found |= {t for t in targets if t in known}
    return found - {name}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A list of modules that import each other in a circle, or None."""
    state: dict[str, str] = {}

    def visit(node, trail):
        state[node] = "open"
        for nxt in sorted(graph[node]):
            if state.get(nxt) == "open":
                return trail[trail.index(nxt) :] + [nxt]
            if nxt not in state and (cycle := visit(nxt, trail + [nxt])):
                return cycle
        state[node] = "done"
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node, [node])):
            return cycle
    return None


def import_graph() -> dict[str, set[str]]:
    return {name: imports_of(name, path) for name, path in modules().items()}


def test_the_import_graph_has_no_cycle():
    graph = import_graph()
    assert "d2lgpu.checks._util" in graph["d2lgpu.grading"]
    assert "d2lgpu.checks._util" in graph["d2lgpu.checks.ch02_time_fn"]
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def test_the_checkers_do_not_import_grading():
    for name, path in modules().items():
        if name.startswith("d2lgpu.checks"):
            assert "d2lgpu.grading" not in imports_of(name, path), name


# The checkers sit above the library (devices, timing, the simulated GPU, ...); only the grader,
# which runs them, sits above the checkers.
ABOVE_THE_CHECKERS = {"d2lgpu.grading"}


def upward_imports(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    """(module, checker module) pairs where a module below the checkers imports one of them."""
    return sorted(
        (name, target)
        for name, targets in graph.items()
        if not name.startswith("d2lgpu.checks") and name not in ABOVE_THE_CHECKERS
        for target in targets
        if target.startswith("d2lgpu.checks")
    )


def test_no_library_module_imports_the_checkers():
    # A helper that the checkers and a library module share (the tables of torch's calls
    # that DeviceWatch and the simulated GPU both read) lives below both, never inside
    # d2lgpu.checks.
    graph = import_graph()
    assert "d2lgpu._device_calls" in graph["d2lgpu._stream_mode"]
    assert "d2lgpu._device_calls" in graph["d2lgpu._device_watch"]
    assert "d2lgpu._device_watch" in graph["d2lgpu.checks._pretend"]
    assert upward_imports(graph) == []


def test_an_upward_import_is_found(tmp_path, monkeypatch):
    fake = tmp_path / "d2lgpu"
    (fake / "checks").mkdir(parents=True)
    (fake / "__init__.py").write_text("")
    (fake / "grading.py").write_text("from .checks import _util\n")
    (fake / "_sim.py").write_text("from .checks._watch import Watch\n")
    (fake / "checks" / "__init__.py").write_text("")
    (fake / "checks" / "_util.py").write_text("")
    (fake / "checks" / "_watch.py").write_text("")
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", fake)
    assert upward_imports(import_graph()) == [("d2lgpu._sim", "d2lgpu.checks._watch")]


def test_the_cycle_finder_finds_a_checker_that_imports_grading(tmp_path, monkeypatch):
    # The tests above must be able to fail: this was the circle before the table of checkers.
    fake = tmp_path / "d2lgpu"
    (fake / "checks").mkdir(parents=True)
    (fake / "__init__.py").write_text("")
    (fake / "grading.py").write_text("from .checks import ch01\n")
    (fake / "checks" / "__init__.py").write_text("")
    (fake / "checks" / "ch01.py").write_text("from ..grading import check\n")
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", fake)
    assert find_cycle(import_graph()) in (
        ["d2lgpu.checks.ch01", "d2lgpu.grading", "d2lgpu.checks.ch01"],
        ["d2lgpu.grading", "d2lgpu.checks.ch01", "d2lgpu.grading"],
    )


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "fork"), reason="requires os.fork (POSIX)")
def test_every_module_imports_alone_in_a_fresh_process():
    # One process imports the third-party libraries once, then forks a child per module: each
    # child starts with no d2lgpu module loaded and imports exactly one.
    names = sorted(modules())
    script = textwrap.dedent(
        f"""
        import os, sys, traceback
        import torch, numpy  # third-party, loaded once before the forks
        failed = []
        for name in {names!r}:
            assert not any(m == "d2lgpu" or m.startswith("d2lgpu.") for m in sys.modules)
            pid = os.fork()
            if pid == 0:
                try:
                    __import__(name)
                except BaseException:
                    traceback.print_exc()
                    os._exit(1)
                os._exit(0)
            _, status = os.waitpid(pid, 0)
            if status != 0:
                failed.append(name)
        print("failed:", failed)
        """
    )
    result = fresh_python("-c", script, timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "failed: []", result.stderr
    assert len(names) >= 20
