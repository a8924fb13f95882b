"""The maintainers' map, docs/ARCHITECTURE.md, lists everything that exists, and the imports obey its layers.

Also the two shorter lists: the README's Layout table (every folder and root file a
maintainer works in) and the module table in ``d2lgpu/__init__.py`` (every public module);
and the size of a module: at most 320 lines in ``d2lgpu/``, ``scripts/`` and ``tools/``
(CONTRIBUTING.md, "What a change must keep").
"""

import re
import subprocess
from pathlib import Path

from test_import_graph import import_graph

from d2lgpu.grading import CHECKERS, exercise_ids

ROOT = Path(__file__).resolve().parent.parent
MAP = (ROOT / "docs" / "ARCHITECTURE.md").read_text()
PACKAGE = ROOT / "d2lgpu"


def named(name: str, text: str = MAP) -> bool:
    return f"`{name}`" in text or f"`{name}." in text or f"/{name}`" in text


def package_modules() -> list[str]:
    return sorted(p.stem for p in PACKAGE.glob("*.py") if p.stem != "__init__")


def layers() -> dict[str, int]:
    """The layer of each module, from the map's ``layer N: ...`` block."""
    found = {}
    for number, names in re.findall(r"^layer (\d+): (.+)$", MAP, flags=re.M):
        for name in names.split():
            assert name not in found, f"{name} is in two layers of the map"
            found[name] = int(number)
    return found


def layer_of(module: str, table: dict[str, int]) -> int:
    """``d2lgpu.x`` -> the layer of ``x``; ``d2lgpu.checks.*`` -> the layer of ``checks``."""
    parts = module.split(".")
    if parts[:2] == ["d2lgpu", "checks"]:
        return table["checks"]
    return table["d2lgpu" if len(parts) == 1 else parts[1]]


def test_the_map_names_every_module_checker_exercise_script_tool_and_test():
    tests_dir = ROOT / "tests"
    wanted = {
        "module": package_modules(),
        "checker module": sorted(
            p.stem for p in (PACKAGE / "checks").glob("*.py") if p.stem != "__init__"
        ),
        "exercise": exercise_ids(),
        "test file": sorted(p.stem for p in tests_dir.glob("test_*.py")),
        "test helper": sorted(
            p.name for p in tests_dir.glob("*.py") if not p.name.startswith("test_")
        ),
        "script": sorted(f"scripts/{p.name}" for p in (ROOT / "scripts").glob("*.py")),
        "tool": sorted(f"tools/{p.name}" for p in (ROOT / "tools").iterdir() if p.is_file()),
    }
    missing = {kind: [n for n in names if not named(n)] for kind, names in wanted.items()}
    missing = {kind: names for kind, names in missing.items() if names}
    assert not missing, f"docs/ARCHITECTURE.md does not name: {missing}"


def test_every_module_has_one_layer_and_imports_only_from_its_own_or_lower():
    table = layers()
    modules = [*package_modules(), "d2lgpu", "checks"]
    assert sorted(table) == sorted(modules), (
        f"the map's layers should list exactly the package's modules; "
        f"missing {sorted(set(modules) - set(table))}, unknown {sorted(set(table) - set(modules))}"
    )
    upward = [
        f"{module} (layer {layer_of(module, table)}) imports {target} "
        f"(layer {layer_of(target, table)})"
        for module, targets in import_graph().items()
        for target in targets
        if layer_of(target, table) > layer_of(module, table)
    ]
    assert not upward, "imports from a higher layer:\n" + "\n".join(upward)


def test_the_layer_check_sees_an_upward_import():
    table = {"devices": 1, "timing": 2, "checks": 7, "grading": 8, "d2lgpu": 5}
    assert layer_of("d2lgpu.checks.ch02_time_fn", table) > layer_of("d2lgpu.timing", table)
    assert layer_of("d2lgpu.devices", table) < layer_of("d2lgpu.timing", table)
    assert layer_of("d2lgpu", table) == 5


def test_the_readme_layout_lists_every_folder_and_root_file_a_maintainer_works_in():
    readme = (ROOT / "README.md").read_text()
    layout = readme[readme.index("## Layout") :]
    layout = layout[: layout.index("\n## ", 1)]
    tracked = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    tops = {path.split("/")[0] + ("/" if "/" in path else "") for path in tracked}
    wanted = sorted(t for t in tops if t.endswith("/") or t in ("conftest.py", "Makefile"))
    missing = [t for t in wanted if f"`{t}`" not in layout]
    assert not missing, f"README's Layout table does not list: {missing}"
    assert "docs/ARCHITECTURE.md" in readme


def test_the_package_docstring_lists_every_public_module():
    import d2lgpu

    public = [m for m in package_modules() if not m.startswith("_")]
    missing = [m for m in public if f"``{m}``" not in d2lgpu.__doc__]
    assert not missing, f"d2lgpu/__init__.py's module table does not list: {missing}"


def test_a_checks_module_is_a_checker_exactly_when_its_name_has_no_leading_underscore():
    checkers = {target.partition(":")[0].rpartition(".")[2] for target in CHECKERS.values()}
    public = {p.stem for p in (PACKAGE / "checks").glob("*.py") if not p.stem.startswith("_")}
    assert public == checkers, (
        "d2lgpu/checks/: a checker in grading's table is named chNN_*, a helper _*; "
        f"helpers without _: {sorted(public - checkers)}, checkers missing: {sorted(checkers - public)}"
    )


def test_each_public_name_has_one_import_path():
    """A public module exports only what it defines, or what a private module defines for it."""
    import importlib
    import inspect

    twice = []
    for module in package_modules():
        mod = importlib.import_module(f"d2lgpu.{module}")
        for name in getattr(mod, "__all__", []):
            obj = getattr(mod, name)
            if not (inspect.isclass(obj) or inspect.isfunction(obj)):
                continue
            home = obj.__module__
            private = any(part.startswith("_") for part in home.split(".")[1:])
            if home != mod.__name__ and home.startswith("d2lgpu.") and not private:
                twice.append(f"d2lgpu.{module}.{name} (also {home}.{name})")
    assert not twice, f"names with two import paths: {twice}"


LINE_LIMIT = 320
# Modules allowed over the limit for a while (none now): each may not grow past the size it
# had when it was let in, its ceiling here, and leaves this list once it is within the limit.
OVER_THE_LIMIT: dict[str, int] = {}


def limited_files() -> list[Path]:
    """The Python files the line limit holds: the package (checkers included), scripts, tools."""
    return sorted(
        [*PACKAGE.rglob("*.py"), *(ROOT / "scripts").glob("*.py"), *(ROOT / "tools").glob("*.py")]
    )


def line_count(path: Path) -> int:
    return len(path.read_text().splitlines())


def test_no_module_has_more_than_320_lines():
    over = {
        path.relative_to(ROOT).as_posix(): n
        for path in limited_files()
        if (n := line_count(path))
        > OVER_THE_LIMIT.get(path.relative_to(ROOT).as_posix(), LINE_LIMIT)
    }
    assert not over, (
        f"over {LINE_LIMIT} lines (or over its ceiling in OVER_THE_LIMIT): {over}. Split the "
        "module along a seam it already has; the old module imports what moved, so that its "
        "names stay importable (CONTRIBUTING.md)"
    )


def test_the_limit_holds_every_package_script_and_tool_module():
    names = {path.relative_to(ROOT).as_posix() for path in limited_files()}
    assert "d2lgpu/checks/_util.py" in names and "tools/gpu_check.py" in names, sorted(names)[:5]
    assert "scripts/train_ddp.py" in names


def test_the_list_of_modules_over_the_limit_only_shrinks():
    for name, ceiling in OVER_THE_LIMIT.items():
        path = ROOT / name
        assert path.is_file(), f"{name} is gone: take it off OVER_THE_LIMIT"
        n = line_count(path)
        assert n > LINE_LIMIT, (
            f"{name} has {n} lines, within the limit of {LINE_LIMIT}: take it off OVER_THE_LIMIT"
        )
        assert ceiling > LINE_LIMIT, f"{name}'s ceiling {ceiling} is no exception: take it off"
