"""Find, stop and count the processes a test started, even after they were re-parented.

torchrun starts its workers in sessions of their own; when torchrun dies they are adopted by
init and no longer look like our children. So each test marks the environment of what it
starts with ``D2LGPU_TEST_TAG=<uuid>`` (torchrun passes its environment on to the workers) and
looks for that mark in /proc.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
import uuid
from pathlib import Path

TAG = "D2LGPU_TEST_TAG"


def new_tag() -> str:
    return uuid.uuid4().hex


def free_port() -> int:
    """A TCP port free right now on 127.0.0.1 (the OS picks it)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def tagged_pids(tag: str, needle: str = "") -> list[int]:
    """Live (not zombie) processes whose environment holds D2LGPU_TEST_TAG=tag, and whose
    command line contains ``needle``."""
    mark = f"{TAG}={tag}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if mark not in (entry / "environ").read_bytes().split(b"\0"):
                continue
            if needle.encode() not in (entry / "cmdline").read_bytes():
                continue
            if (entry / "stat").read_text().rsplit(")", 1)[1].split()[0] == "Z":
                continue
        except OSError:
            continue
        found.append(int(entry.name))
    return found


def wait_gone(tag: str, timeout_s: float = 15.0) -> list[int]:
    """Wait until no process carries the tag; return the ones still alive at the deadline."""
    deadline = time.monotonic() + timeout_s
    while (left := tagged_pids(tag)) and time.monotonic() < deadline:
        time.sleep(0.2)
    return left


def kill_tagged(tag: str) -> None:
    for pid in tagged_pids(tag):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def stop(proc: subprocess.Popen, tag: str, grace_s: float = 15.0) -> None:
    """SIGTERM torchrun (never SIGKILL first: that orphans its workers), then kill the rest."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=grace_s)
        except subprocess.TimeoutExpired:
            pass
    kill_tagged(tag)
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    proc.wait()


class Output:
    """Collects a process's output lines in a thread, so a test can wait for one with a
    deadline instead of blocking on readline()."""

    def __init__(self, proc: subprocess.Popen):
        import threading

        self.lines: list[str] = []
        self._changed = threading.Condition()
        self._thread = threading.Thread(target=self._read, args=(proc,), daemon=True)
        self._thread.start()

    def _read(self, proc):
        for line in proc.stdout:
            with self._changed:
                self.lines.append(line)
                self._changed.notify_all()

    def wait_for(self, text: str, timeout_s: float) -> bool:
        deadline = time.monotonic() + timeout_s
        with self._changed:
            while not any(text in line for line in self.lines):
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._changed.wait(timeout=min(left, 0.5))
        return True

    @property
    def text(self) -> str:
        with self._changed:
            return "".join(self.lines)
