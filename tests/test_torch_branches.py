"""Every torch-version branch of the course, and the lane that runs each of its sides.

The course supports torch from pyproject.toml's floor (2.11, what Colab's GPU runtime ships)
to the lock's pin (requirements.lock). Code that asks the installed torch whether it has a
feature newer than the floor is a version branch: ``make test`` (the lock's torch) runs the
side that has it, ``make test-floor`` (the floor's torch, in .venv-floor) the side that does
not. Both lanes run this file.

What this file counts as a version branch, in the package, scripts/, tests/ and the code
cells of the notebooks, solutions and exercises: a ``hasattr(obj, "name")``, a
``getattr(obj, "name", default)`` or a ``"name" in inspect.signature(f)`` whose object is
torch's (its text names ``torch``), that names a torch version within two lines ("newer than
torch 2.11"), or that reads a signature; and any comparison with ``torch.__version__``. Each
one found is listed in :data:`BRANCHES` (the floor lacks the feature, the lock's torch has
it) or :data:`GUARDS` (every supported torch has the name: a guard for other builds and
platforms, which no supported torch takes). The tests fail when one is found and not listed,
when a listed one is gone, when the running lane's torch does not take the side it should
(a branch whose other side no lane runs), and when what runs a branch is not in both lanes.
"""

from __future__ import annotations

import inspect
import json
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from fnmatch import fnmatch
from pathlib import Path

import pytest
import torch

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import setup_env  # noqa: E402


def _signature_has(function: Callable, name: str) -> bool:
    return name in inspect.signature(function).parameters


def _checkpoint_respects_hooks() -> bool:
    from torch.utils.checkpoint import checkpoint

    return _signature_has(checkpoint, "respect_saved_tensors_hooks")


def _events_have_links() -> bool:
    from torch.autograd.profiler_util import FunctionEvent

    return _signature_has(FunctionEvent.__init__, "linked_correlation_id")


def _ddp_has_default_cap() -> bool:
    from torch.nn.parallel import distributed

    return hasattr(distributed, "_DEFAULT_BUCKET_CAP_MB")


def _custom_ops_keep_one_autocast_dict() -> bool:
    from torch._library.custom_ops import CustomOpDef

    return "self._autocast_dtype" in inspect.getsource(CustomOpDef.__init__)


@dataclass(frozen=True)
class Branch:
    where: str  # a file, or a notebook and its cell id: "notebooks/02_tensors.ipynb#70098291"
    name: str  # what it looks up
    feature: Callable[[], bool]  # whether the running torch has it
    run_by: str  # "nbval" (the notebook, in both lanes), a test file, or "gpu" (see below)


# A "gpu" branch is in a cell that needs a CUDA GPU: neither lane runs it. Its stored reference
# was recorded on a GPU with the floor's torch, so that side has run there; the lock's side
# has not, until a GPU run with that torch records it.
BRANCHES = [
    # chapter 2 calls these two (sections 2.7 and 2.8); tests/test_versions.py runs both sides
    Branch("d2lgpu/versions.py", "empty_host_cache",
           lambda: hasattr(torch.accelerator, "empty_host_cache"), "tests/test_versions.py"),
    Branch("d2lgpu/versions.py", "_accelerator_getAllocatorSettings",
           lambda: hasattr(torch._C, "_accelerator_getAllocatorSettings"),
           "tests/test_versions.py"),
    # ... and tests/test_versions.py asks the same, to know which side this lane's torch takes
    Branch("tests/test_versions.py", "empty_host_cache",
           lambda: hasattr(torch.accelerator, "empty_host_cache"), "tests/test_versions.py"),
    Branch("tests/test_versions.py", "_accelerator_getAllocatorSettings",
           lambda: hasattr(torch._C, "_accelerator_getAllocatorSettings"),
           "tests/test_versions.py"),
    # chapter 9 calls this one (section 9.6); tests/test_versions.py runs both sides
    Branch("d2lgpu/versions.py", "respect_saved_tensors_hooks", _checkpoint_respects_hooks,
           "tests/test_versions.py"),
    Branch("tests/test_versions.py", "respect_saved_tensors_hooks", _checkpoint_respects_hooks,
           "tests/test_versions.py"),
    # chapter 10 calls this one (section 10.2); tests/test_versions.py runs it
    Branch("d2lgpu/versions.py", "_DEFAULT_BUCKET_CAP_MB", _ddp_has_default_cap,
           "tests/test_versions.py"),
    # chapter 10 launches the script (its "buckets" part profiles DDP's backward)
    Branch("scripts/inside_ddp.py", "linked_correlation_id", _events_have_links,
           "notebooks/10_inside_ddp.ipynb"),
    Branch("tests/test_memory.py", "respect_saved_tensors_hooks", _checkpoint_respects_hooks,
           "tests/test_memory.py"),
    # a custom operator rebuilt in a fork-server rank keeps its autocast dtypes: one dict in
    # newer torch, one attribute per device type in 2.11 (tests/test_op_send.py runs both)
    Branch("d2lgpu/_op_send.py", "_autocast_dtype", _custom_ops_keep_one_autocast_dict,
           "tests/test_op_send.py"),
]  # fmt: skip

# (where, name): every supported torch has it; the lookup guards against other builds.
GUARDS = {
    ("d2lgpu/devices.py", "mps"): lambda: hasattr(torch.backends, "mps"),
    ("d2lgpu/_env_probes.py", "recommended_max_memory"): lambda: hasattr(
        torch.mps, "recommended_max_memory"
    ),
    ("d2lgpu/_rank_start.py", "mps"): lambda: hasattr(torch.backends, "mps"),
    ("d2lgpu/bench_measures.py", "L2_cache_size"): lambda: hasattr(
        torch._C._CudaDeviceProperties, "L2_cache_size"
    ),
}

SCANNED = ("d2lgpu/**/*.py", "scripts/*.py", "solutions/*.py", "exercises/*.py", "tests/*.py")
NOTEBOOK_DIRS = ("notebooks", "solutions", "exercises")
OBJECT = r"[\w.]+(?:\([^()]*\))?"
LOOKUP = re.compile(
    rf"""hasattr\(\s*(?P<a>{OBJECT})\s*,\s*["'](?P<an>\w+)["']\s*\)"""
    rf"""|getattr\(\s*(?P<b>{OBJECT})\s*,\s*["'](?P<bn>\w+)["']\s*,"""
    r"""|["'](?P<cn>\w+)["']\s+(?:not\s+)?in\s+inspect\.signature\("""
)
VERSION_TALK = re.compile(r"torch 2\.\d+|newer than (?:torch )?2\.\d+")
VERSION_COMPARE = re.compile(r"torch\.__version__\s*[<>]|parse\(\s*torch\.__version__")


def version_lookups(where: str, source: str) -> set[tuple[str, str]]:
    """(where, name) of each version branch in ``source``, as the module docstring defines it."""
    lines = source.splitlines()
    found = set()
    for i, line in enumerate(lines):
        if VERSION_COMPARE.search(line):
            found.add((where, "__version__"))
        near = "\n".join(lines[max(0, i - 2) : i + 3])
        for m in LOOKUP.finditer(line):
            obj = m["a"] or m["b"] or ""
            if m["cn"] or "torch" in obj or VERSION_TALK.search(near):
                found.add((where, m["an"] or m["bn"] or m["cn"]))
    return found


def course_sources():
    """(where, source) of every file and notebook code cell this file scans."""
    this = Path(__file__).resolve()
    for pattern in SCANNED:
        for path in sorted(ROOT.glob(pattern)):
            if path.resolve() != this:
                yield path.relative_to(ROOT).as_posix(), path.read_text()
    for folder in NOTEBOOK_DIRS:
        for path in sorted((ROOT / folder).glob("*.ipynb")):
            for cell in json.loads(path.read_text())["cells"]:
                if cell["cell_type"] == "code":
                    yield f"{folder}/{path.name}#{cell['id']}", "".join(cell["source"])


def found_lookups() -> set[tuple[str, str]]:
    return {hit for where, source in course_sources() for hit in version_lookups(where, source)}


def makefile_value(name: str) -> list[str]:
    text = (ROOT / "Makefile").read_text().replace("\\\n", " ")  # continued lines
    (value,) = re.findall(rf"^{name}\s*[?:]?=\s*(.*)$", text, re.M)
    return value.split()


def lock_torch() -> str:
    (pin,) = re.findall(r"^torch==([\w.]+)", (ROOT / "requirements.lock").read_text(), re.M)
    return pin


def this_lane() -> str:
    """Which lane's torch this is, "lock" or "floor"; skip, saying so, on any other torch."""
    release = torch.__version__.split("+")[0]
    floor, _ = setup_env.floor_versions()
    if release == lock_torch():
        return "lock"
    if release.startswith(floor + "."):
        return "floor"
    pytest.skip(
        f"torch {torch.__version__} is neither the lock's ({lock_torch()}) nor the floor "
        f"({floor}.*): the lanes' sides do not apply to it"
    )


def notebook_cell(where: str) -> dict:
    path, cell_id = where.split("#")
    cells = json.loads((ROOT / path).read_text())["cells"]
    (cell,) = [c for c in cells if c.get("id") == cell_id]
    return cell


def test_every_version_branch_is_listed_and_every_listed_one_exists():
    listed = {(b.where, b.name) for b in BRANCHES} | set(GUARDS)
    found = found_lookups()
    assert not found - listed, (
        f"version branches not listed in BRANCHES or GUARDS: {sorted(found - listed)}; say "
        "which lane runs each side (or make the code the same on every supported torch)"
    )
    assert not listed - found, f"listed, but no longer in the course: {sorted(listed - found)}"


def test_the_scan_finds_each_kind_of_version_branch():
    source = (
        'if hasattr(torch.accelerator, "new_thing"):\n'
        'cap = getattr(ddp_module, "_CAP", None)  # newer than torch 2.11\n'
        'ok = "flag" in inspect.signature(checkpoint).parameters\n'
        "if torch.__version__ >= '2.12':\n"
        'local = p.to_local() if hasattr(p, "to_local") else p\n'  # not torch's: no branch
        'name = getattr(fn, "__name__", "")\n'
    )
    assert version_lookups("x.py", source) == {
        ("x.py", "new_thing"), ("x.py", "_CAP"), ("x.py", "flag"), ("x.py", "__version__"),
    }  # fmt: skip


@pytest.mark.parametrize("branch", BRANCHES, ids=lambda b: f"{b.where}:{b.name}")
def test_this_lanes_torch_takes_its_side_of_the_branch(branch):
    lane = this_lane()
    has = branch.feature()
    assert has is (lane == "lock"), (
        f"torch {torch.__version__} ({lane} lane) "
        + ("has" if has else "lacks")
        + f" {branch.name}: the floor must lack it and the lock's torch have it, or one side of "
        f"{branch.where} runs in no lane (drop the branch if every supported torch has it)"
    )


@pytest.mark.parametrize("key", sorted(GUARDS))
def test_a_guard_is_never_taken_by_a_supported_torch(key):
    this_lane()
    assert GUARDS[key](), f"torch {torch.__version__} lacks {key[1]}: {key[0]} is a version branch"


@pytest.mark.parametrize("branch", BRANCHES, ids=lambda b: f"{b.where}:{b.name}")
def test_both_lanes_run_the_branch(branch):
    notebooks = makefile_value("NOTEBOOKS")
    floor_tests = makefile_value("FLOOR_TESTS")
    if branch.run_by in ("nbval", "gpu"):
        cell = notebook_cell(branch.where)
        tags = cell["metadata"].get("tags", [])
        assert branch.where.split("/")[0] in notebooks  # nbval runs the folder in both lanes
        if branch.run_by == "gpu":
            assert "requires-gpu" in tags
            floor, _ = setup_env.floor_versions()
            recorded = json.dumps(cell["outputs"])
            assert "Recorded on" in recorded and f"torch {floor}." in recorded, (
                f"{branch.where}: its GPU reference no longer shows a run with torch {floor}"
            )
        else:
            assert "requires-gpu" not in tags and not {"nbval-skip", "skip-execution"} & set(tags)
    elif branch.run_by.endswith(".ipynb"):
        assert branch.run_by.split("/")[0] in notebooks
    else:
        assert branch.run_by.startswith("tests/") and (ROOT / branch.run_by).exists()
        assert any(fnmatch(branch.run_by, p) for p in floor_tests), (
            f"{branch.run_by} runs {branch.where}'s branch; add it to FLOOR_TESTS in the Makefile"
        )


def test_the_floor_lane_runs_this_file_and_the_checkers():
    floor_tests = makefile_value("FLOOR_TESTS")
    for path in ("tests/test_torch_branches.py", "tests/test_checks_ch01.py"):
        assert any(fnmatch(path, p) for p in floor_tests), path
