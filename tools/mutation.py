"""Run mutmut 3 on the checkers and the layers under them, one module at a time, and count what it found.

    python tools/mutation.py                              # every module of MODULES, in turn
    python tools/mutation.py d2lgpu/stream_sim.py         # one module (`make mutation MODULE=...`)
    python tools/mutation.py tools/work_copies.py         # a tool the tests import from tools/
    python tools/mutation.py --counts d2lgpu/grading.py   # only count the last run's results

mutmut copies ``d2lgpu/``, ``tools/`` and ``tests/`` into ``mutants/`` (git-ignored), writes every
mutant of the files that ``[tool.mutmut]`` in pyproject.toml names into them, runs the
selected test files once to learn which tests call which function, then, for each mutant
of the module, runs the tests that called its function. Its configuration comes from
pyproject.toml alone, so each module runs in a process of its own (``--run-one``) that
sets the test selection to that module's fast test files (:data:`MODULES`) before mutmut
starts; the parent stops it at the time limit.

The tests import a module of ``tools/`` as a top-level module (``tools/`` on ``sys.path``,
``import work_copies``), as the tools import one another, so its functions belong to the
module ``work_copies``, not ``tools.work_copies``. mutmut names a mutant by its file's path,
and runs a mutant only where that name's module is the function's own: ``--run-one`` names
the mutants of ``tools/`` files without the ``tools.`` (:func:`mutant_module`), or mutmut
would find no test for them.

mutmut sees only the calls made in pytest's own process: a function that runs only in a
gloo rank or a torchrun child shows as "no tests". The counts (:func:`count_statuses`)
are read from mutmut's ``mutants/<module>.meta``; ``mutmut results`` lists the
survivors and ``mutmut show <name>`` shows one. docs/mutation.md records the counts.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
import tomllib
from collections import Counter
from pathlib import Path

import mutation_decorated

ROOT = Path(__file__).resolve().parent.parent
TIME_LIMIT_S = 20 * 60
MAX_CHILDREN = 2
# A module whose tests rely on what mutmut's first run of them left in its process lists this
# among its test files: its copies are forked from that process (see run_one).
FORK = "--fork"
# A module whose tests grade Triton kernels lists this: its mutmut process starts with Triton's
# interpreter on (TRITON_INTERPRET=1 before triton is imported, as the exercise notebook does),
# so those tests grade in pytest's own process, where mutants reach, not in a fresh Python.
TRITON_INTERPRET = "--triton-interpret"
# An entry ``redteam:<exercise id>`` stands for that exercise's red-team answers, each graded
# by tests/test_redteam.py in the tests' own process, where mutants reach.
REDTEAM = "redteam:"
STATS = "mutmut-stats.json"  # mutmut's record of the tests that call each function (in mutants/)

# Each module mutmut mutates, with its fast test files: tools/mutation_modules.toml.
MODULES: dict[str, list[str]] = tomllib.loads(
    (ROOT / "tools" / "mutation_modules.toml").read_text()
)

# mutmut's statuses, in the order the table shows them; "reached" is every mutant that
# some test ran against, and its score counts a time-out as killed (as mutmut does).
COLUMNS = ("killed", "survived", "no tests", "timeout", "other")
REACHED = ("killed", "survived", "timeout", "other")


def mutant_module(path: str | Path) -> str:
    """The module whose functions the tests import from the file ``path`` (under d2lgpu/ or tools/).

    ``d2lgpu/checks/ch08_streams.py``: ``d2lgpu.checks.ch08_streams``; ``tools/work_copies.py``:
    ``work_copies``, since the tests put ``tools/`` on ``sys.path`` and import it by that name.
    """
    path = Path(path)
    if path.suffix != ".py" or len(path.parts) < 2 or path.parts[0] not in ("d2lgpu", "tools"):
        raise ValueError(f"module must be a .py file under d2lgpu/ or tools/, got {str(path)!r}")
    parts = path.with_suffix("").parts
    return ".".join(parts[1:] if parts[0] == "tools" else parts)


def mutant_pattern(module: str) -> str:
    """The glob of mutmut's names for the mutants of ``module`` (a path under d2lgpu/ or tools/)."""
    return mutant_module(module) + ".*"


def _name_tools_mutants_by_their_module() -> None:
    """Make mutmut name the mutants of a tools/ file ``work_copies.x_...``, as the tests import it.

    mutmut 3.8 names them by path (``tools.work_copies.x_...``) in three places that share
    ``format_utils.get_mutant_name``; this process (and the workers it forks) uses
    :func:`mutant_module` there instead.
    """
    import mutmut.__main__ as mutmut_main
    from mutmut.mutation import file_mutation
    from mutmut.utils import format_utils

    by_path = format_utils.get_mutant_name

    def get_mutant_name(relative_source_path: Path, mutant_method_name: str) -> str:
        if Path(relative_source_path).parts[:1] == ("tools",):
            return f"{mutant_module(relative_source_path)}.{mutant_method_name}"
        return by_path(relative_source_path, mutant_method_name)

    for holder in (format_utils, file_mutation, mutmut_main):
        holder.get_mutant_name = get_mutant_name


def count_statuses(exit_codes: dict[str, int | None]) -> Counter:
    """Count mutmut's exit codes (a ``.meta`` file's ``exit_code_by_key``) by status.

    Each of :data:`COLUMNS` gets a count (zero where none), plus "not checked" for the
    mutants not run yet; a status outside them (suspicious, segfault, skipped) is "other".
    """
    from mutmut.stats import status_by_exit_code

    counts = Counter({column: 0 for column in COLUMNS})
    for code in exit_codes.values():
        status = status_by_exit_code[code]
        if status == "caught by type check":
            status = "killed"
        counts[status if status in COLUMNS or status == "not checked" else "other"] += 1
    return counts


def score(counts: Counter) -> float | None:
    """The share of reached mutants that a test killed (or timed out), None if none was reached."""
    reached = sum(counts[s] for s in REACHED)
    return None if not reached else (counts["killed"] + counts["timeout"]) / reached


def read_counts(module: str, mutants_dir: Path) -> Counter:
    """The counts of ``module``'s mutants from the last run, all zero before any."""
    meta = mutants_dir / (module + ".meta")
    if not meta.exists():
        return count_statuses({})
    return count_statuses(json.loads(meta.read_text())["exit_code_by_key"])


def table_row(module: str, counts: Counter, wall_s: float | None) -> str:
    """One markdown row: module, the counts of COLUMNS, not checked, score, wall time."""
    s = score(counts)
    cells = [f"`{module}`", *(str(counts[c]) for c in COLUMNS), str(counts["not checked"])]
    cells.append("-" if s is None else f"{100 * s:.1f}%")
    cells.append("-" if wall_s is None else f"{wall_s / 60:.1f} min")
    return "| " + " | ".join(cells) + " |"


TABLE_HEADER = (
    "| module | killed | survived | no tests | timeout | other | not checked | score | wall |\n"
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
)


def selection_of(module: str) -> list[str]:
    """``module``'s pytest arguments: its test files, each ``redteam:<id>`` as its answers' tests."""
    selection = []
    for entry in MODULES[module]:
        if not entry.startswith(REDTEAM):
            selection.append(entry)
            continue
        folder = ROOT / "tests" / "redteam" / entry.removeprefix(REDTEAM)
        answers = sorted(folder.glob("*.py"))
        if not answers:
            raise SystemExit(f"{module}: {entry} names no answers (no {folder}/*.py)")
        selection += [
            f"tests/test_redteam.py::test_red_team_answer[{folder.name}/{path.stem}]"
            for path in answers
        ]
    return selection


def run_one(module: str, max_children: int) -> None:
    """In this process: run mutmut on ``module`` with its test files as the selection."""
    from mutmut import configuration

    cfg = configuration.config()
    selection = selection_of(module)
    cfg.pytest_add_cli_args_test_selection = [
        a for a in selection if a not in (FORK, TRITON_INTERPRET)
    ]
    if TRITON_INTERPRET in selection:
        os.environ["TRITON_INTERPRET"] = "1"
    # A module's copies are forked from mutmut's fork server, which has only collected the
    # tests, not from the process that ran them: a test that ran torch's intra-op threads or
    # its profiler leaves a process whose forked copies hang at their next parallel operation,
    # and each hang would count as a mutant found (a time-out) after minutes. FORK keeps the
    # process that ran them, for a module whose tests read back what that run measured.
    cfg.process_isolation = (
        configuration.ProcessIsolation.FORK
        if FORK in selection
        else configuration.ProcessIsolation.FORKSERVER
    )
    _name_tools_mutants_by_their_module()
    mutation_decorated.install()  # the decorated functions too: @contextmanager, @one_cpu_thread
    from mutmut.__main__ import cli

    cli(["run", "--max-children", str(max_children), mutant_pattern(module)])


def run_module(
    module: str, max_children: int, time_limit_s: float, log: Path
) -> tuple[float, bool]:
    """Run ``module`` in a child process, stopped at the time limit: (wall seconds, finished)."""
    command = [sys.executable, __file__, "--run-one", "--max-children", str(max_children), module]
    # mutmut rewrites a module's mutants only when the module is newer than them: remove them,
    # so that a change of do_not_mutate_patterns in pyproject.toml counts too. Remove its record
    # of which test calls which function as well: it reruns only tests it has not seen for it,
    # so a test changed since the last run would keep the calls it made then, and a mutant of a
    # function it calls now would survive untested.
    for stale in (module, module + ".meta", STATS):
        (ROOT / "mutants" / stale).unlink(missing_ok=True)
    start = time.monotonic()
    # A session of its own, so that the time limit stops mutmut's workers too; mutmut's
    # line per mutant goes to a log beside its results.
    log.parent.mkdir(exist_ok=True)
    with log.open("w") as out:
        child = subprocess.Popen(
            command, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    try:
        child.wait(timeout=time_limit_s)
        finished = child.returncode == 0
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGTERM)
        try:
            child.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(child.pid, signal.SIGKILL)
            child.wait()
        finished = False
    return time.monotonic() - start, finished


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument(
        "modules",
        nargs="*",
        help="paths under d2lgpu/ or tools/ (default: every module of MODULES)",
    )
    parser.add_argument(
        "--max-children",
        type=int,
        default=MAX_CHILDREN,
        help="mutmut's worker processes (default: %(default)s)",
    )
    parser.add_argument(
        "--time-limit",
        type=float,
        default=TIME_LIMIT_S,
        help="seconds per module (default: %(default)s)",
    )
    parser.add_argument(
        "--counts", action="store_true", help="only print the counts of the last run"
    )
    parser.add_argument("--run-one", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    modules = args.modules or list(MODULES)
    unknown = [m for m in modules if m not in MODULES]
    if unknown:
        parser.error(
            f"MODULE must be one of MODULES in tools/mutation.py ({', '.join(MODULES)}), got {', '.join(unknown)}"
        )
    if args.max_children < 1:
        parser.error(f"--max-children must be at least 1, got {args.max_children}")
    if args.time_limit <= 0:
        parser.error(f"--time-limit must be positive seconds, got {args.time_limit}")
    os.chdir(ROOT)  # mutmut reads pyproject.toml and writes mutants/ in the working directory
    if args.run_one:
        run_one(modules[0], args.max_children)
        return 0

    rows, failed = [], []
    for module in modules:
        wall_s = None
        if not args.counts:
            log = ROOT / "mutants" / (Path(module).stem + ".log")
            print(
                f"== {module}: mutmut run {mutant_pattern(module)} (log: {log.relative_to(ROOT)})",
                flush=True,
            )
            wall_s, finished = run_module(module, args.max_children, args.time_limit, log)
            if not finished:
                failed.append(module)
                print(log.read_text()[-3000:])
            print(table_row(module, read_counts(module, ROOT / "mutants"), wall_s), flush=True)
        rows.append(table_row(module, read_counts(module, ROOT / "mutants"), wall_s))
    print(TABLE_HEADER)
    print("\n".join(rows))
    if failed:
        print(
            f"stopped at the time limit or failed: {', '.join(failed)} (their counts are partial)"
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
