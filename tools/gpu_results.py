"""What a call of ``make gpu-check`` leaves in ``docs/results/<device>/``, and reads back.

* ``gpu-check-state.json``: for each unit, the commit, outcome (passed, failed, cut off),
  seconds and end of its last run; ``--resume`` skips the units that finished at the
  commit being checked, and ``tools/gpu_units.py`` takes expected times from it;
* ``gpu-check.md``: each call's summary, newest first: what ran, what was cut off at the
  time limit, what remains, the failed tests and the slow cells;
* ``env.txt``: ``nvidia-smi -L``, ``python -m d2lgpu env`` and the commit;
* ``cells/`` and ``cell-runs.jsonl`` (written by ``conftest.py`` as the cells run): what a
  notebook's earlier run recorded is dropped before it runs again.

Not for deciding what runs (``tools/gpu_units.py``) or running it (``tools/gpu_check.py``).
"""

from __future__ import annotations

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
SLOW_CELL_S = 10.0  # no cell may take longer than this on a GPU
STATE = "gpu-check-state.json"


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


def write_env(out: Path, seconds: float) -> None:
    """``env.txt``: ``nvidia-smi -L``, ``python -m d2lgpu env`` and the commit, within ``seconds``."""
    text, commands = "", [[sys.executable, "-m", "d2lgpu", "env"]]
    if shutil.which("nvidia-smi"):
        commands.insert(0, ["nvidia-smi", "-L"])
    deadline = time.monotonic() + seconds
    for cmd in commands:
        left = max(1.0, deadline - time.monotonic())
        try:
            text += subprocess.run(
                cmd, cwd=ROOT, capture_output=True, text=True, timeout=left
            ).stdout
        except subprocess.TimeoutExpired:
            text += f"{' '.join(cmd[-2:])}: no answer within {left:.0f} s\n"
    (out / "env.txt").write_text(f"commit {git_commit()}\n" + text)


def load_state(out: Path) -> dict:
    path = out / STATE
    return json.loads(path.read_text()) if path.exists() else {"units": {}}


def save_state(out: Path, state: dict) -> None:
    tmp = out / (STATE + ".tmp")
    tmp.write_text(json.dumps(state, indent=1, sort_keys=True) + "\n")
    os.replace(tmp, out / STATE)  # a call cut off while writing leaves the old state whole


def junit_counts(path: Path) -> dict:
    """Tests, failures, errors and skips of a JUnit XML file (empty if it is missing)."""
    if not path.exists():
        return {}
    try:
        cases = list(ET.parse(path).iter("testcase"))
    except ET.ParseError:  # a process killed while writing it
        return {}
    counts = {"tests": len(cases), "failures": 0, "errors": 0, "skipped": 0}
    failed = []
    kinds = {"failure": "failures", "error": "errors", "skipped": "skipped"}
    for case in cases:
        for child in case:
            if child.tag in kinds:
                counts[kinds[child.tag]] += 1
                if child.tag != "skipped":
                    failed.append(f"{case.get('classname')}::{case.get('name')}")
    counts["failed"] = failed
    return counts


def slow_cells(out: Path, notebooks: list[str] | None = None) -> list[dict]:
    """Cells slower than :data:`SLOW_CELL_S` in ``cell-runs.jsonl`` (of ``notebooks`` only)."""
    path = out / "cell-runs.jsonl"
    if not path.exists():
        return []
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return [
        r
        for r in rows
        if r["seconds"] > SLOW_CELL_S and (notebooks is None or r["notebook"] in notebooks)
    ]


def write_summary(out: Path, runs: list[dict], head: str = "", notes=(), notebooks=None) -> Path:
    """Prepend to ``gpu-check.md`` what this call ran, how long, what failed, what is left."""
    summary = out / "gpu-check.md"
    previous = summary.read_text() if summary.exists() else ""
    lines = [f"## {datetime.datetime.now():%Y-%m-%d %H:%M}, commit {git_commit()}{head}", ""]
    lines += [
        "| unit | tier | status | exit code | seconds | tests | failed | skipped |",
        "|---|---|---|---|---|---|---|---|",
    ]
    failed_all = []
    for r in runs:
        c = junit_counts(out / "units" / f"{r['name']}.xml")
        failed_all += c.get("failed", [])
        lines.append(
            f"| {r['name']} | {r.get('tier', '-')} | {r.get('status', '-')} | {r['exit_code']} "
            f"| {r['seconds']:g} | {c.get('tests', '-')} "
            f"| {c.get('failures', 0) + c.get('errors', 0) if c else '-'} "
            f"| {c.get('skipped', '-')} |"
        )
    lines += ["", *notes] + [f"- failed: `{name}`" for name in failed_all]
    lines += [
        f"- slow cell (> {SLOW_CELL_S:g} s): {r['notebook']} cell {r['cell_id']}, {r['seconds']} s"
        for r in slow_cells(out, notebooks)
    ]
    summary.write_text("\n".join(lines) + "\n\n" + previous)
    return summary


def call_notes(runs, remains, done, expected, room) -> list[str]:
    """What the summary says below the table: the tiers, what was cut off, what remains.

    ``room``: the seconds a call has for its units (``None``: no limit).
    """
    notes = [
        "- tiers: 1, cells that never passed on a GPU as they are now; "
        "2, chapters 9 and 10 and their checkers; 3, the rest"
    ]
    notes += [
        f"- cut off: `{r['name']}` after {r['seconds']:g} s, at the time limit or stopped "
        "(what it ran is kept; it runs again with --resume)"
        for r in runs
        if r["status"] == "cut off"
    ]
    if done:
        names = ", ".join(f"`{u.name}`" for u in done)
        notes.append(f"- finished earlier at this commit (--resume): {units(done)}: {names}")
    if remains:
        names = ", ".join(f"`{u.name}`" for u in remains)
        total = sum(expected[u.name] for u in remains)
        notes.append(
            f"- remains: {units(remains)}, about {total:.0f} s: {names}; run again with --resume"
        )
        too_long = [u.name for u in remains if room and expected[u.name] > room]
        if too_long:
            notes.append(
                f"- expected to take longer than a call's limit allows: "
                f"{', '.join(too_long)}; raise --time-limit for them"
            )
    return notes


def units(some: list) -> str:
    return f"{len(some)} unit" + ("s" if len(some) != 1 else "")
