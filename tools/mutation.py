"""Run mutmut 3 on the checkers and the layers under them, one module at a time, and count what it found.

    python tools/mutation.py                              # every module of MODULES, in turn
    python tools/mutation.py d2lgpu/stream_sim.py         # one module (`make mutation MODULE=...`)
    python tools/mutation.py tools/work_copies.py         # a tool the tests import from tools/
    python tools/mutation.py --counts d2lgpu/grading.py   # only count the last run's results
    python tools/mutation.py --functions check_ddp d2lgpu/checks/ch05_ddp.py  # those functions

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
gloo rank or a torchrun child shows as "no tests". The counts (``mutation_counts``)
are read from mutmut's ``mutants/<module>.meta``; ``mutmut results`` lists the
survivors and ``mutmut show <name>`` shows one. docs/mutation.md records the counts.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import mutation_decorated
from mutation_counts import TABLE_HEADER, mutant_module, mutant_patterns, read_counts, table_row

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


def run_one(module: str, max_children: int, functions: list[str] | None = None) -> None:
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

    cli(["run", "--max-children", str(max_children), *mutant_patterns(module, functions)])


def run_module(
    module: str, max_children: int, time_limit_s: float, log: Path, functions=None
) -> tuple[float, bool]:
    """Run ``module`` (its ``functions`` alone, where given) in a child process, stopped at the
    time limit: (wall seconds, finished)."""
    command = [sys.executable, __file__, "--run-one", "--max-children", str(max_children), module]
    command += ["--functions", ",".join(functions)] if functions else []
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
    parser.add_argument(
        "--functions",
        type=lambda text: text.split(","),
        help="comma-separated: mutate only these functions of the one module (Class.method)",
    )
    parser.add_argument("--run-one", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    modules = args.modules or list(MODULES)
    unknown = [m for m in modules if m not in MODULES]
    if unknown:
        parser.error(
            f"MODULE must be one of MODULES in tools/mutation.py ({', '.join(MODULES)}), got {', '.join(unknown)}"
        )
    if args.functions and len(modules) != 1:
        parser.error(f"--functions goes with exactly one module, got {len(modules)}")
    try:
        patterns = [p for m in modules for p in mutant_patterns(m, args.functions)]
    except ValueError as error:
        parser.error(str(error))
    if args.max_children < 1:
        parser.error(f"--max-children must be at least 1, got {args.max_children}")
    if args.time_limit <= 0:
        parser.error(f"--time-limit must be positive seconds, got {args.time_limit}")
    os.chdir(ROOT)  # mutmut reads pyproject.toml and writes mutants/ in the working directory
    if args.run_one:
        run_one(modules[0], args.max_children, args.functions)
        return 0

    rows, failed = [], []
    for module in modules:
        wall_s = None
        if not args.counts:
            log = ROOT / "mutants" / (Path(module).stem + ".log")
            print(
                f"== {module}: mutmut run {' '.join(patterns)} (log: {log.relative_to(ROOT)})",
                flush=True,
            )
            wall_s, finished = run_module(
                module, args.max_children, args.time_limit, log, args.functions
            )
            if not finished:
                failed.append(module)
                print(log.read_text()[-3000:])
            counts = read_counts(module, ROOT / "mutants", args.functions)
            print(table_row(module, counts, wall_s), flush=True)
        rows.append(
            table_row(module, read_counts(module, ROOT / "mutants", args.functions), wall_s)
        )
    print(TABLE_HEADER)
    print("\n".join(rows))
    if failed:
        print(
            f"stopped at the time limit or failed: {', '.join(failed)} (their counts are partial)"
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
