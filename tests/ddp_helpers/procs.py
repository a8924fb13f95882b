"""The tests' handle on the processes they start: d2lgpu.processes with the tests' own mark.

Each test marks the environment of what it starts with ``D2LGPU_TEST_TAG=<uuid>`` (torchrun,
JupyterLab and Chromium pass their environment on to what they start) and finds, stops and
counts those processes by that mark, even after they were re-parented.
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time
import uuid

from d2lgpu.processes import marked_pids, stop_job
from d2lgpu.processes import wait_gone as _wait_gone

TAG = "D2LGPU_TEST_TAG"


def new_tag() -> str:
    return uuid.uuid4().hex


def tagged_pids(tag: str, needle: str = "") -> list[int]:
    """Live processes marked with ``tag`` whose command line contains ``needle``."""
    return marked_pids(TAG, tag, needle)


def wait_gone(tag: str, timeout_s: float = 15.0) -> list[int]:
    """Wait until no process carries the tag; return the ones still alive at the deadline."""
    return _wait_gone(TAG, tag, timeout_s)


def fresh_python(*args: str, **kwargs) -> subprocess.CompletedProcess:
    """``python args`` in a fresh process of this interpreter, its output captured as text.

    ``subprocess.run``'s keyword arguments pass through (``env``, ``check``, ``timeout``, ``cwd``).
    """
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, **kwargs)


def stop(proc: subprocess.Popen, tag: str, grace_s: float = 15.0) -> None:
    """SIGTERM torchrun (never SIGKILL first: that orphans its workers), then the rest."""
    stop_job(proc, TAG, tag, grace_s)


class Output:
    """Collects a process's output lines in a thread, so a test can wait for one with a
    deadline instead of blocking on readline()."""

    def __init__(self, proc: subprocess.Popen):
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
