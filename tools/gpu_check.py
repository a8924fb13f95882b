"""Verify the course on a CUDA machine and keep everything it measured: ``make gpu-check``.

    python tools/gpu_check.py [--part tests,notebooks,bench] [--time-limit S] [--resume]

Parts (default: all three):

* ``tests``: ``tests/`` on pytest-xdist workers (``--dist loadfile``: a file's tests stay
  in one process), in groups of files, but the files whose checkers time overlap on the GPU
  in one process alone; and ``exercises/`` with nbval;
* ``notebooks``: ``notebooks/`` and ``solutions/`` with nbval, one notebook at a time
  (timings in the cells must not share the GPU), storing what every GPU cell printed as
  its reference output and every cell's wall time;
* ``bench``: ``python -m d2lgpu bench``.

They run as units (a notebook, a group of test files, the exercises, the bench), the
least-verified first (``tools/gpu_units.py``): notebooks with cells that have never passed
on a GPU as they are now, then chapters 9 and 10 and their checkers, then the rest.

Everything lands in ``docs/results/<device>/``, ready to commit, and each unit's results as
soon as it ends: ``units/<unit>.xml`` (JUnit) and ``units/<unit>.log``, ``cells/`` and
``cell-runs.jsonl`` (written cell by cell), ``bench/``, ``env.txt``, ``gpu-check.md`` (the
summary of each call, newest first) and ``gpu-check-state.json`` (each unit's commit,
outcome and seconds). With ``--time-limit`` a call starts no unit that its expected time
(from the state, else the cells' times, else a default) would take past the limit, stops a
unit still running at the limit, and ends within the limit with the summary written;
``--resume`` skips the units that finished at the same commit. Exit code: 1 if a unit failed, else 3 if units were cut off
or remain, else 0; 2 without a GPU. A unit runs as a process of its own
(``tools/gpu_unit_run.py``), stopped at the limit.
"""

from __future__ import annotations

import argparse
import datetime
import os
import shutil
import signal
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

import gpu_units  # noqa: E402
from gpu_results import (  # noqa: E402
    STATE,
    call_notes,
    forget_runs_of,
    git_commit,
    load_state,
    save_state,
    write_env,
    write_summary,
)
from gpu_unit_run import KILL_WAIT_S, STOP_GRACE_S, run_unit  # noqa: E402
from gpu_units import PARTS, Unit  # noqa: E402

from d2lgpu.references import device_slug  # noqa: E402

NBVAL = [
    "-p",
    "no:randomly",  # a notebook's cells run in order
    "--nbval",
    "--nbval-current-env",
    "--nbval-sanitize-with",
    "tests/sanitize.cfg",
    "--nbval-cell-timeout=300",
    "--nbval-kernel-startup-timeout=300",
]
# Of a time limit, kept to stop the last unit and write the summary.
RESERVE_S = STOP_GRACE_S + KILL_WAIT_S + 3.0


def pytest_cmd(xml: Path, *args: str) -> list[str]:
    report = ["-rs", "-p", "no:cacheprovider", "--tb=long", f"--junitxml={xml}"]
    return [sys.executable, "-m", "pytest", *report, *args]


def unit_command(unit: Unit, out: Path, workers: int) -> list[str]:
    """The command that runs ``unit`` (the tests replace it with a fake one)."""
    xml = out / "units" / f"{unit.name}.xml"
    if unit.part == "bench":
        return [sys.executable, "-m", "d2lgpu", "bench", "--out", str(out / "bench")]
    if unit.paths[0].startswith("tests/"):
        workers_of = [] if unit.alone else ["-n", str(workers), "--dist", "loadfile"]
        return pytest_cmd(xml, *workers_of, *unit.paths)
    return pytest_cmd(xml, *NBVAL, *unit.paths)


def unit_env(unit: Unit, results: Path) -> dict:
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    if unit.tier == 2:
        env["D2LGPU_RANKS_START"] = "forkserver"  # what a GPU machine uses; said, not assumed
    if unit.part == "notebooks":
        env["D2LGPU_RECORD_DIR"] = str(results)
        env["D2LGPU_RECORD_ORIGIN"] = f"make gpu-check at commit {git_commit()}"
    return env


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--part", default=",".join(PARTS), help="comma-separated, of %(default)s (default: all)"
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=min(8, os.cpu_count() or 1),
        help="pytest-xdist workers of each group of test files (default: %(default)s)",
    )
    parser.add_argument(
        "--notebooks",
        nargs="+",
        default=["notebooks", "solutions"],
        help="the notebooks and folders the notebooks part runs and records; "
        "the references of others are kept (default: notebooks solutions)",
    )
    parser.add_argument(
        "--time-limit",
        type=float,
        default=None,
        metavar="SECONDS",
        help="end this call within SECONDS (default: no limit)",
    )
    parser.add_argument(
        "--resume",
        action="store_true",
        help="skip the units that finished at this commit in earlier calls",
    )
    parser.add_argument("--dry-run", action="store_true", help="print the plan, run nothing")
    parser.add_argument(
        "--device",
        help="with --dry-run: plan with the times recorded for this GPU model "
        '(as nvidia-smi names it, e.g. "NVIDIA H200"); default: this machine\'s GPU',
    )
    parser.add_argument(
        "--results",
        default=str(ROOT / "docs" / "results"),
        help="results root (default: %(default)s)",
    )
    args = parser.parse_args(argv)
    args.parts = [p for p in args.part.split(",") if p]
    unknown = sorted(set(args.parts) - set(PARTS))
    if unknown or not args.parts:
        parser.error(f"--part: unknown {unknown or args.part!r}; allowed: {', '.join(PARTS)}")
    if args.workers < 1:
        parser.error(f"--workers must be >= 1, got {args.workers}")
    missing = [n for n in args.notebooks if not (ROOT / n).exists()]
    if missing:
        parser.error(f"--notebooks: no such notebook or folder {missing}")
    if args.time_limit is not None and not args.time_limit > RESERVE_S:
        parser.error(
            f"--time-limit must be a number of seconds above {RESERVE_S:g} (the time "
            f"kept to stop a unit and write the summary), got {args.time_limit:g}"
        )
    if args.device and not args.dry_run:
        parser.error("--device: only with --dry-run (a run records under the GPU it runs on)")
    args.error = parser.error
    return args


def main(argv=None) -> int:
    called = time.monotonic()
    args = parse_args(argv)
    import torch

    if not torch.cuda.is_available() and not args.dry_run:
        print("gpu-check needs a CUDA GPU; this machine has none (make test is the CPU suite).")
        return 2
    on_gpu = torch.cuda.is_available()
    gpus = torch.cuda.device_count() if on_gpu else 1  # a dry run plans for one GPU
    results = Path(args.results)
    device = args.device or (torch.cuda.get_device_name() if on_gpu else "no GPU")
    out = results / device_slug(device)
    if args.resume and not (out / STATE).exists():
        args.error(f"--resume: no {STATE} in {out} to resume from; run once without --resume")
    state, commit = load_state(out), git_commit()
    units = gpu_units.plan(ROOT, args.parts, args.notebooks, results, gpus)
    finished = {
        n
        for n, u in state["units"].items()
        if u["commit"] == commit and u["status"] in ("passed", "failed")
    }
    done = [u for u in units if args.resume and u.name in finished]
    todo = [u for u in units if u not in done]
    expected = {u.name: gpu_units.expected_seconds(u, state, out) for u in todo}
    for u in todo:
        print(f"-- tier {u.tier}: {u.name}, about {expected[u.name]:.0f} s", *u.why, sep="\n   ")
    tiers = {t: sum(expected[u.name] for u in todo if u.tier == t) for t in (1, 2, 3)}
    print("-- expected: " + ", ".join(f"tier {t} about {s:.0f} s" for t, s in tiers.items()))
    if args.dry_run:
        return 0
    stop_at = called + args.time_limit - RESERVE_S if args.time_limit else float("inf")
    (out / "units").mkdir(parents=True, exist_ok=True)
    if args.resume and not done:
        print(f"--resume: no unit has finished at commit {commit} yet, so all of them run")
    # A machine taken back sends SIGTERM: stop the unit, keep what ran, write the summary.
    previous_handler = signal.signal(signal.SIGTERM, interrupt)
    runs: list[dict] = []
    try:
        write_env(out, min(120.0, stop_at - time.monotonic()))
        for unit in todo:
            if runs and runs[-1]["status"] == "cut off":
                break
            if time.monotonic() + expected[unit.name] <= stop_at:  # else a later, shorter one
                runs.append(run_one(unit, out, results, args.workers, stop_at))
                state["units"][unit.name] = dict(runs[-1], commit=commit, ended=now())
                save_state(out, state)
    except KeyboardInterrupt:
        print("== interrupted: the summary follows", flush=True)
    finally:
        signal.signal(signal.SIGTERM, previous_handler)
        ran = {r["name"] for r in runs}
        remains = [u for u in todo if u.name not in ran]
        room = args.time_limit - RESERVE_S if args.time_limit else None
        notes = call_notes(runs, remains, done, expected, room)
        head = f", limit {args.time_limit:g} s" if args.time_limit else ""
        head += f", {time.monotonic() - called:.0f} s"
        notebooks = [u.paths[0] for u in units if u.part == "notebooks" and u.name in ran]
        summary = write_summary(out, runs, head, notes, notebooks)
        print(summary.read_text().split("\n\n## ")[0])
    if any(r["status"] == "failed" for r in runs):
        return 1
    return 3 if remains or any(r["status"] == "cut off" for r in runs) else 0


def run_one(unit: Unit, out: Path, results: Path, workers: int, stop_at: float) -> dict:
    """Clear what an earlier run of ``unit`` left, then run it."""
    if unit.part == "notebooks":
        forget_runs_of(out, unit.paths)
    if unit.part == "bench":
        shutil.rmtree(out / "bench", ignore_errors=True)
    cmd, env = unit_command(unit, out, workers), unit_env(unit, results)
    return run_unit(unit, cmd, env, out, stop_at)


def now() -> str:
    return f"{datetime.datetime.now():%Y-%m-%d %H:%M:%S}"


def interrupt(signum, frame):
    raise KeyboardInterrupt


if __name__ == "__main__":
    sys.exit(main())
