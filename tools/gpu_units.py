"""What ``make gpu-check`` runs, in which order, and how long each piece should take.

The work is cut into units, each one pytest (or bench) process whose results are kept as
soon as it ends: one notebook, a group of test files, the exercises, the bench. Units run
least-verified first, in three tiers:

1. notebooks holding a cell that has never passed on a GPU in its current form
   (:func:`unverified_cells`), most such cells first;
2. chapters 9 and 10: their notebooks and solutions, the tests of their exercises' checkers
   and of the ranks (``tests/test_checks_ch09*``, ``tests/test_checks_ch10*``,
   ``tests/test_ranks.py``), and their exercises, with ranks started from the fork server;
3. everything else, part by part in the order asked for.

Not for running units or keeping their results: ``tools/gpu_check.py`` does that.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from d2lgpu import references
from d2lgpu.magics import gpus_needed

PARTS = ("tests", "notebooks", "bench")
TEST_GROUPS = 4  # the tests outside tier 2, in this many units (each starts its own workers)
CHAPTERS_9_10 = re.compile(r"(^|/)(test_checks_ch09|test_checks_ch10|test_ranks\.py|09_|10_)")
# Tests whose checkers time overlap on the real GPU: one process, no workers beside it. The
# H200 of 2026-12-04 ran them beside 7 workers whose kernels shared the GPU: two right
# pipelines measured 0.93x the serial loop, and 1.28 ms of 5.08 ms of copies overlapped; alone,
# all 172 tests of these files passed.
TIMED = re.compile(r"(^|/)test_checks_ch08")
# An ordinary cell that branches on the device (and asserts) checks there what no CPU run does.
GPU_BRANCH = re.compile(r"\bif\b[^\n]*(cuda|gpu|nccl)", re.IGNORECASE)
# Expected seconds of a unit that no earlier call has timed, above what each took on one H200
# with 8 workers: all of tests/ 119 s, all exercises 60 s, the slowest notebook 40 s, bench 24 s.
DEFAULT_S = {"tests": 120.0, "exercises": 90.0, "notebooks": 120.0, "bench": 90.0}


@dataclass
class Unit:
    """One process of ``make gpu-check``: its results go to ``units/<name>.xml`` and ``.log``."""

    name: str
    part: str  # one of PARTS; the exercises belong to "tests"
    tier: int  # 1, 2 or 3 (see the module's docstring)
    paths: list[str]  # what pytest runs, relative to the repository root
    why: list[str] = field(default_factory=list)  # the cells that put a notebook in tier 1
    alone: bool = False  # tests run in one process, without xdist's workers (:data:`TIMED`)


def notebook_files(root: Path, selection: list[str]) -> list[str]:
    """The ``.ipynb`` files under the folders and files of ``selection``, in course order."""
    found = set()
    for entry in selection:
        path = root / entry
        for nb in [path] if path.is_file() else path.rglob("*.ipynb"):
            if ".ipynb_checkpoints" not in nb.parts:
                found.add(nb.relative_to(root).as_posix())
    return sorted(found)


def load_runs(results: Path) -> dict[tuple[str, str], list[tuple[str, dict]]]:
    """Every device's ``cell-runs.jsonl`` rows, by (notebook, cell id): ``[(device, row)]``."""
    runs: dict[tuple[str, str], list[tuple[str, dict]]] = {}
    for path in sorted(results.glob("*/cell-runs.jsonl")):
        for line in path.read_text().splitlines():
            if line.strip():
                row = json.loads(line)
                runs.setdefault((row["notebook"], row["cell_id"]), []).append(
                    (path.parent.name, row)
                )
    return runs


def unverified_cells(root: Path, notebook: str, results: Path, gpus: int, keys=None, runs=None):
    """The cells of ``notebook`` that have never passed on a GPU as they are now, said why.

    * a GPU cell needing at most ``gpus`` GPUs without a stored reference under its current
      key (:func:`d2lgpu.references.cell_key`): references are stored only for cells that passed;
    * a cell that failed in a device's last run, unless a run since passed with its current key;
    * an ordinary cell that branches on the device (``if ... cuda``/``gpu``/``nccl``) and
      asserts, whose runs all had another key, or that never ran. Rows without a key (recorded before
      ``cell-runs.jsonl`` kept one) count as its current code.
    """
    keys = references.load_references(results) if keys is None else keys
    runs = load_runs(results) if runs is None else runs
    cells = json.loads((root / notebook).read_text())["cells"]
    found, earlier = [], []
    for index, cell in enumerate(cells):
        if cell.get("cell_type") != "code":
            continue
        source = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
        needed = gpus_needed(cell.get("metadata", {}).get("tags", []))
        key = references.cell_key(source, earlier)  # as conftest.py records it
        earlier.append(source)
        rows = runs.get((notebook, cell["id"]), [])
        passed_now = any(r["outcome"] == "passed" and r.get("key") == key for _, r in rows)
        where = f"cell {index} ({cell['id']})"
        if needed:
            if needed <= gpus and key not in keys:
                found.append(f"{where}: GPU cell with no reference for its current code")
        elif not passed_now and any(r["outcome"] == "failed" for _, r in rows):
            devices = sorted({d for d, r in rows if r["outcome"] == "failed"})
            found.append(f"{where}: failed on {', '.join(devices)}")
        elif not passed_now and GPU_BRANCH.search(source) and "assert" in source:
            if not any(r["outcome"] == "passed" and "key" not in r for _, r in rows):
                found.append(f"{where}: its GPU branch has not passed as it is now")
    return found


def plan(root: Path, parts: list[str], notebooks: list[str], results: Path, gpus: int):
    """The units of ``parts``, least-verified first (see the module's docstring)."""
    units = []
    if "tests" in parts:
        tests = sorted(p.relative_to(root).as_posix() for p in (root / "tests").glob("test_*.py"))
        ch9_10 = [t for t in tests if CHAPTERS_9_10.search(t)]
        timed = [t for t in tests if TIMED.search(t) and t not in ch9_10]
        rest = [t for t in tests if t not in ch9_10 and t not in timed]
        units.append(Unit("tests-ch09-10", "tests", 2, ch9_10))
        units.append(Unit("tests-timed", "tests", 3, timed, alone=True))
        size = max(1, -(-len(rest) // TEST_GROUPS))  # rounded up
        for i in range(0, len(rest), size):
            units.append(Unit(f"tests-{i // size + 1}", "tests", 3, rest[i : i + size]))
        exercises = sorted(
            p.relative_to(root).as_posix() for p in (root / "exercises").glob("*.ipynb")
        )
        ex9_10 = [e for e in exercises if CHAPTERS_9_10.search(e)]
        units.append(Unit("exercises-ch09-10", "tests", 2, ex9_10))
        units.append(Unit("exercises", "tests", 3, [e for e in exercises if e not in ex9_10]))
    if "notebooks" in parts:
        keys, runs = references.load_references(results), load_runs(results)
        for nb in notebook_files(root, notebooks):
            why = unverified_cells(root, nb, results, gpus, keys, runs)
            tier = 1 if why else 2 if CHAPTERS_9_10.search(nb) else 3
            name = Path(nb).with_suffix("").as_posix().replace("/", "_")
            units.append(Unit(name, "notebooks", tier, [nb], why))
    if "bench" in parts:
        units.append(Unit("bench", "bench", 3, []))
    units = [u for u in units if u.paths or u.part == "bench"]
    order = {"notebooks": 0, "tests": 1, "bench": 2}  # within tier 2: notebooks, then checkers

    def rank(unit: Unit):
        within = -len(unit.why) if unit.tier == 1 else 0
        part = order[unit.part] if unit.tier == 2 else parts.index(unit.part)
        return (unit.tier, within, part)

    return sorted(units, key=rank)  # stable: names in order within a part


def expected_seconds(unit: Unit, state: dict, out: Path) -> float:
    """How long ``unit`` should take: from the state an earlier call left, else from the
    cells' times in this device's ``cell-runs.jsonl`` (a notebook), else :data:`DEFAULT_S`."""
    earlier = state.get("units", {}).get(unit.name)
    exercises = unit.paths and unit.paths[0].startswith("exercises/")
    default = DEFAULT_S["exercises" if exercises else unit.part]
    if earlier and earlier.get("status") == "cut off":
        return max(default, 1.25 * earlier["seconds"])  # it needs more than it had
    if earlier:
        return 1.25 * earlier["seconds"] + 5
    runs = out / "cell-runs.jsonl"
    if unit.part == "notebooks" and runs.exists():
        rows = [json.loads(line) for line in runs.read_text().splitlines() if line.strip()]
        seconds = [r["seconds"] for r in rows if r["notebook"] == unit.paths[0]]
        if seconds:
            return 1.5 * sum(seconds) + 20  # and a kernel to start
    return default
