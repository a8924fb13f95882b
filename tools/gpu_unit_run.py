"""One unit of ``make gpu-check`` (``tools/gpu_check.py``) as a process: its output logged and
shown as it comes, and, at the time limit, stopped so that pytest still writes its JUnit file
of what ran, with the kernels it started killed too (one left running would hold the GPU
while the next unit times it).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from gpu_units import Unit

ROOT = Path(__file__).resolve().parents[1]
# After SIGINT, pytest has this long to write the JUnit file of what ran and stop (with xdist
# workers it took 7 to 11 s on 2 cores: xdist waits up to 10 s for its workers to end), and
# then its kernels this long to go after SIGKILL.
STOP_GRACE_S, KILL_WAIT_S = 15.0, 2.0


def descendants(pid: int) -> list:
    """The processes below ``pid``, kernels included (they start in sessions of their own)."""
    try:
        import psutil  # a dependency of ipykernel, so there wherever nbval runs
    except ImportError:
        return []
    try:
        return psutil.Process(pid).children(recursive=True)
    except psutil.Error:
        return []


def stop(proc: subprocess.Popen) -> None:
    """SIGINT first (pytest then writes what ran to its JUnit file), SIGKILL what is left."""
    below = descendants(proc.pid)
    try:
        os.killpg(proc.pid, signal.SIGINT)
        proc.wait(timeout=STOP_GRACE_S)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        pass
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()
    if below:  # a kernel left running would hold the GPU while the next unit times it
        import psutil

        for p in below:
            with contextlib.suppress(psutil.Error):
                p.kill()
        psutil.wait_procs(below, timeout=KILL_WAIT_S)


def run_unit(unit: Unit, cmd: list[str], env: dict, out: Path, stop_at: float) -> dict:
    """Run ``cmd`` until it ends or ``stop_at`` (``time.monotonic()``), logging its output."""
    print(f"== {unit.name} (tier {unit.tier}): {' '.join(cmd)}", flush=True)
    start, cut = time.monotonic(), False
    with open(out / "units" / f"{unit.name}.log", "w") as log:
        proc = subprocess.Popen(
            cmd,
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            text=True,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        copy = threading.Thread(target=tee, args=(proc.stdout, log), daemon=True)
        copy.start()
        try:
            proc.wait(timeout=max(0.0, stop_at - time.monotonic()))
        except (subprocess.TimeoutExpired, KeyboardInterrupt):
            cut = True
            stop(proc)
        copy.join(timeout=1.0 if cut else 5.0)  # a process left behind may hold the pipe
    seconds = round(time.monotonic() - start, 1)
    status = "cut off" if cut else "passed" if proc.returncode == 0 else "failed"
    print(f"== {unit.name}: {status} (exit code {proc.returncode}) after {seconds:g} s", flush=True)
    return {
        "name": unit.name,
        "tier": unit.tier,
        "status": status,
        "exit_code": proc.returncode,
        "seconds": seconds,
    }


def tee(stream, log) -> None:
    try:
        for line in stream:
            log.write(line)
            log.flush()  # a call killed outright still keeps the log up to here
            sys.stdout.write(line)
    except ValueError:  # the log was closed: a process left behind still holds the pipe
        pass
