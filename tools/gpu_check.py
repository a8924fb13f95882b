"""Verify the course on a CUDA machine and keep everything it measured: ``make gpu-check``.

    python tools/gpu_check.py [--part tests,notebooks,bench] [--workers N]

Parts (default: all three, in this order):

* ``tests``: ``tests/`` on pytest-xdist workers (``--dist loadfile``: a file's
  tests stay in one process), then ``exercises/`` with nbval;
* ``notebooks``: ``notebooks/`` and ``solutions/`` with nbval, one notebook at a
  time (timings in the cells must not share the GPU), storing what every GPU
  cell printed as its reference output and every cell's wall time;
* ``bench``: ``python -m d2lgpu bench``.

Everything lands in ``docs/results/<device>/`` (JUnit XML and a full log per
part, ``env.txt``, ``cells/``, ``cell-runs.jsonl``, ``bench/``, and
``gpu-check.md``, the summary), ready to commit. Each part replaces what an
earlier run of that part left there. On a 16-core, 1-GPU H100 machine the
``tests`` part takes about 4 minutes and ``notebooks,bench`` about 5, so the
two fit in two runs of under 9 minutes (``docs/gpu-run.md``).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import shutil
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from d2lgpu.references import device_slug  # noqa: E402

PARTS = ("tests", "notebooks", "bench")
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
SLOW_CELL_S = 10.0  # no cell may take longer than this on a GPU


def run_logged(name: str, cmd: list[str], out: Path, env: dict | None = None) -> dict:
    """Run ``cmd`` from the repository root, teeing its output to ``out/<name>.log``."""
    print(f"== {name}: {' '.join(cmd)}", flush=True)
    start = time.perf_counter()
    with open(out / f"{name}.log", "w") as log:
        proc = subprocess.Popen(
            cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        for line in proc.stdout:
            log.write(line)
            sys.stdout.write(line)
        proc.wait()
    seconds = time.perf_counter() - start
    print(f"== {name}: exit code {proc.returncode} after {seconds:.0f} s", flush=True)
    return {"name": name, "exit_code": proc.returncode, "seconds": round(seconds, 1)}


def pytest_cmd(name: str, out: Path, *args: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "pytest",
        "-rs",
        "-p",
        "no:cacheprovider",
        "--tb=long",
        f"--junitxml={out / (name + '.xml')}",
        *args,
    ]


def junit_counts(path: Path) -> dict:
    """Tests, failures, errors and skips of a JUnit XML file (empty if it is missing)."""
    if not path.exists():
        return {}
    counts = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    failed = []
    for case in ET.parse(path).iter("testcase"):
        counts["tests"] += 1
        for child in case:
            if child.tag in ("failure", "error", "skipped"):
                counts[
                    {"failure": "failures", "error": "errors", "skipped": "skipped"}[child.tag]
                ] += 1
                if child.tag != "skipped":
                    failed.append(f"{case.get('classname')}::{case.get('name')}")
    counts["failed"] = failed
    return counts


def part_tests(out: Path, workers: int) -> list[dict]:
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    return [
        run_logged(
            "tests",
            pytest_cmd("tests", out, "-n", str(workers), "--dist", "loadfile", "tests"),
            out,
            env,
        ),
        run_logged("exercises", pytest_cmd("exercises", out, *NBVAL, "exercises"), out, env),
    ]


def forget_runs_of(out: Path, notebooks: list[str]) -> None:
    """Drop what an earlier run recorded for these notebooks (all of them for the folders)."""
    paths = {Path(n).as_posix() for n in notebooks}
    covers = lambda nb: nb in paths or any(nb.startswith(p.rstrip("/") + "/") for p in paths)  # noqa: E731
    for ref in (out / "cells").glob("*.json"):
        if covers(json.loads(ref.read_text()).get("notebook", "")):
            ref.unlink()
    runs = out / "cell-runs.jsonl"
    if runs.exists():
        kept = [
            line
            for line in runs.read_text().splitlines()
            if not covers(json.loads(line)["notebook"])
        ]
        runs.write_text("".join(line + "\n" for line in kept))


def part_notebooks(out: Path, results: Path, notebooks: list[str]) -> list[dict]:
    forget_runs_of(out, notebooks)
    env = dict(os.environ, PYTHONUNBUFFERED="1", D2LGPU_RECORD_DIR=str(results))
    env["D2LGPU_RECORD_ORIGIN"] = f"make gpu-check at commit {git_commit()}"
    cmd = pytest_cmd("notebooks", out, *NBVAL, *notebooks)
    return [run_logged("notebooks", cmd, out, env)]


def part_bench(out: Path) -> list[dict]:
    shutil.rmtree(out / "bench", ignore_errors=True)
    cmd = [sys.executable, "-m", "d2lgpu", "bench", "--out", str(out / "bench")]
    return [run_logged("bench", cmd, out, dict(os.environ, PYTHONUNBUFFERED="1"))]


def git_commit() -> str:
    """The commit the results belong to: ``D2LGPU_COMMIT`` if set (a copied tree's history can
    be stale), else git's HEAD, marked when the tree differs from it."""
    if os.environ.get("D2LGPU_COMMIT"):
        return os.environ["D2LGPU_COMMIT"]
    try:
        git = ["git", "-C", str(ROOT)]
        head = subprocess.run(
            [*git, "rev-parse", "--short", "HEAD"], capture_output=True, text=True
        )
        changed = subprocess.run(
            [*git, "status", "--porcelain", "--untracked-files=no"], capture_output=True, text=True
        )
    except OSError:
        return "unknown"
    commit = head.stdout.strip() or "unknown"
    return commit + (" with uncommitted changes" if changed.stdout.strip() else "")


def slow_cells(out: Path) -> list[dict]:
    path = out / "cell-runs.jsonl"
    if not path.exists():
        return []
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return [r for r in rows if r["seconds"] > SLOW_CELL_S]


def write_summary(out: Path, runs: list[dict]) -> Path:
    """``gpu-check.md``: what ran, how long, what failed, which cells were slow."""
    summary = out / "gpu-check.md"
    previous = summary.read_text() if summary.exists() else ""
    lines = [f"## {datetime.datetime.now():%Y-%m-%d %H:%M}, commit {git_commit()}", ""]
    lines += [
        "| part | exit code | seconds | tests | failed | skipped |",
        "|---|---|---|---|---|---|",
    ]
    failed_all = []
    for r in runs:
        c = junit_counts(out / f"{r['name']}.xml")
        failed_all += c.get("failed", [])
        lines.append(
            f"| {r['name']} | {r['exit_code']} | {r['seconds']:g} | {c.get('tests', '-')} "
            f"| {c.get('failures', 0) + c.get('errors', 0) if c else '-'} "
            f"| {c.get('skipped', '-')} |"
        )
    lines += [""] + [f"- failed: `{name}`" for name in failed_all]
    slow = slow_cells(out)
    lines += [
        f"- slow cell (> {SLOW_CELL_S:g} s): {r['notebook']} cell {r['cell_id']}, {r['seconds']} s"
        for r in slow
    ]
    summary.write_text("\n".join(lines) + "\n\n" + previous)
    return summary


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--part", default=",".join(PARTS), help="comma-separated: tests,notebooks,bench"
    )
    parser.add_argument("--workers", type=int, default=min(8, os.cpu_count() or 1))
    parser.add_argument(
        "--notebooks",
        nargs="+",
        default=["notebooks", "solutions"],
        help="what the notebooks part runs and records (default: notebooks solutions); "
        "the references of others are kept",
    )
    parser.add_argument("--results", default=str(ROOT / "docs" / "results"), help="results root")
    args = parser.parse_args(argv)
    parts = [p for p in args.part.split(",") if p]
    unknown = sorted(set(parts) - set(PARTS))
    if unknown:
        parser.error(f"--part: unknown {unknown}; allowed: {', '.join(PARTS)}")
    if args.workers < 1:
        parser.error(f"--workers must be >= 1, got {args.workers}")
    missing = [n for n in args.notebooks if not (ROOT / n).exists()]
    if missing:
        parser.error(f"--notebooks: no such notebook or folder {missing}")

    import torch

    if not torch.cuda.is_available():
        print("gpu-check needs a CUDA GPU; this machine has none (make test is the CPU suite).")
        return 2
    results = Path(args.results)
    out = results / device_slug(torch.cuda.get_device_name())
    out.mkdir(parents=True, exist_ok=True)
    env_cmd = [sys.executable, "-m", "d2lgpu", "env"]
    env_text = subprocess.run(env_cmd, cwd=ROOT, capture_output=True, text=True).stdout
    smi = shutil.which("nvidia-smi")
    if smi:
        env_text = subprocess.run([smi, "-L"], capture_output=True, text=True).stdout + env_text
    (out / "env.txt").write_text(f"commit {git_commit()}\n" + env_text)

    runs = []
    for part in parts:
        if part == "tests":
            runs += part_tests(out, args.workers)
        elif part == "notebooks":
            runs += part_notebooks(out, results, args.notebooks)
        else:
            runs += part_bench(out)
    summary = write_summary(out, runs)
    print(summary.read_text().split("\n\n## ")[0])
    return max(r["exit_code"] for r in runs)


if __name__ == "__main__":
    sys.exit(main())
