"""Find and stop the processes a job started, even after they were re-parented (Linux).

torchrun starts its workers in sessions of their own, and when torchrun dies they are adopted
by init: they no longer look like anyone's children. So whoever starts a job marks its
environment with a variable, ``NAME=value`` (children inherit it), and finds the job's
processes again by that mark in ``/proc``. :func:`~d2lgpu.launcher.launch` does this for
every launch, and the tests for every process they start.

What it is for: :func:`marked_pids`, :func:`wait_gone`, :func:`signal_pids`,
:func:`stop_job` (SIGTERM first, SIGKILL last), and :func:`free_port` for a local
rendezvous or server.

What it is not: a process manager. Outside Linux there is no ``/proc``: :func:`marked_pids`
then finds nothing and :func:`stop_job` can reach only the job's own process group.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from pathlib import Path

__all__ = ["free_port", "marked_pids", "signal_pids", "stop_job", "wait_gone"]


def marked_pids(name: str, value: str, needle: str = "") -> list[int]:
    """Live processes (not this one) whose environment holds ``name=value`` and whose
    command line contains ``needle``. A zombie (dead, not yet reaped by its parent) has an
    empty ``/proc/PID/environ``, so it is never found: it needs no stopping."""
    mark = f"{name}={value}".encode()
    proc = Path("/proc")
    if not proc.is_dir():
        return []
    found = []
    for entry in proc.iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if mark not in (entry / "environ").read_bytes().split(b"\0"):
                continue
            if needle.encode() not in (entry / "cmdline").read_bytes():
                continue
        except OSError:  # gone meanwhile, or not ours to read
            continue
        found.append(int(entry.name))
    return sorted(found)


def wait_gone(name: str, value: str, timeout_s: float = 15.0) -> list[int]:
    """Wait until no process carries the mark; return those still alive at the deadline."""
    deadline = time.monotonic() + timeout_s
    while (left := marked_pids(name, value)) and time.monotonic() < deadline:
        time.sleep(0.1)
    return left


def signal_pids(pids, sig: int) -> None:
    """Send ``sig`` to each of ``pids``, skipping those that have exited meanwhile."""
    for pid in pids:
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            pass


def stop_job(proc: subprocess.Popen, name: str, value: str, grace_s: float = 15.0) -> None:
    """End ``proc`` and every process carrying the mark ``name=value``, gently first.

    SIGTERM goes to ``proc`` alone (torchrun forwards it to its workers and waits for them),
    never SIGKILL first: killed outright, torchrun leaves its workers running as orphans.
    After ``grace_s`` what still carries the mark gets SIGTERM, then, up to 5 s later,
    SIGKILL; last, ``proc``'s process group is killed (when it leads one), ``proc`` reaped,
    and the killed processes awaited (up to 5 s more), so that none is left on return.
    """
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=grace_s)
        except subprocess.TimeoutExpired:
            pass
    leftovers = marked_pids(name, value)
    if leftovers:
        signal_pids(leftovers, signal.SIGTERM)
        leftovers = wait_gone(name, value, timeout_s=min(grace_s, 5.0))
    signal_pids(leftovers, signal.SIGKILL)
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGKILL)  # the last resort
        except (ProcessLookupError, PermissionError):
            pass
    proc.wait()
    if leftovers:  # SIGKILL is delivered, not awaited: gone when this returns
        wait_gone(name, value, timeout_s=5.0)


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port free right now on ``host`` (the OS picks it; another process may take it
    before you bind it, so use it at once)."""
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]
