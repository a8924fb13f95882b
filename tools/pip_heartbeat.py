"""pip run so that the terminal never stays still for long: its output passed on as it comes
(its progress bars kept on a terminal), and after :data:`HEARTBEAT_S` of silence a line
saying for how long it has run, what pip is busy with and how big the environment has grown
(unpacking PyTorch's 6 GB prints nothing for minutes). ``tools/setup_env.py`` runs pip so.

Standard library only: it runs before anything is installed.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

HEARTBEAT_S = 15.0  # the longest the terminal stays still while pip works


def folder_size(folder: Path) -> int:
    total = 0
    for path, _, names in os.walk(folder):
        for name in names:
            try:
                total += os.lstat(os.path.join(path, name)).st_size
            except OSError:  # pip replaced it meanwhile
                pass
    return total


def doing(last_line: str, installing: bool = False) -> str:
    """What pip is busy with, from the last line it printed (``installing``: it has said
    "Installing collected packages", after which it prints nothing until it is done)."""
    line = last_line.strip()
    if installing or line.startswith("Installing collected packages"):
        return "pip is unpacking the packages into the environment and prints nothing meanwhile"
    if line.startswith(("Downloading", "Collecting", "Processing", "Obtaining")):
        return f"pip is still on: {line[:100]}"
    return "pip is working" + (f"; it last said: {line[:100]}" if line else "")


def run_with_heartbeat(
    command: list[str], *, cwd: Path, venv_dir: Path, every_s: float = HEARTBEAT_S
) -> int:
    """Run ``command``, passing its output on; after ``every_s`` of silence, say what it does.

    The line names the time so far, what pip is busy with and how big the
    environment has grown. On a terminal pip keeps its progress bars (it
    writes to a pseudo-terminal); elsewhere its output goes through a pipe.
    """
    master = None
    if os.name == "posix" and sys.stdout.isatty():
        import pty

        master, slave = pty.openpty()
        process = subprocess.Popen(command, cwd=cwd, stdout=slave, stderr=slave)
        os.close(slave)
        source = master
    else:
        process = subprocess.Popen(
            command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
        )
        source = process.stdout.fileno()
    state = {"last": time.monotonic(), "line": "", "newline": True, "installing": False}
    lock = threading.Lock()

    def pump() -> None:
        pending = b""
        while True:
            try:
                chunk = os.read(source, 65536)
            except OSError:  # the pseudo-terminal closed with the process
                break
            if not chunk:
                break
            with lock:
                sys.stdout.buffer.write(chunk)
                sys.stdout.flush()
                pending = (pending + chunk)[-4096:]
                lines = [x for x in pending.replace(b"\r", b"\n").split(b"\n") if x.strip()]
                if lines:
                    state["line"] = lines[-1].decode(errors="replace")
                state["installing"] |= b"Installing collected packages" in pending
                state["last"], state["newline"] = time.monotonic(), chunk.endswith(b"\n")

    reader = threading.Thread(target=pump, daemon=True)
    reader.start()
    started = time.monotonic()
    while process.poll() is None:
        time.sleep(min(1.0, every_s / 4))
        with lock:
            if time.monotonic() - state["last"] < every_s:
                continue
            elapsed = round(time.monotonic() - started)
            size = folder_size(venv_dir) / 2**30
            print(
                ("" if state["newline"] else "\n")
                + f"  ... {elapsed // 60} min {elapsed % 60:02d} s so far: {doing(state['line'], state['installing'])}"
                + f" ({size:.1f} GB in {venv_dir.name} now; about 6 GB on Linux when done)",
                flush=True,
            )
            state["last"], state["newline"] = time.monotonic(), True
    reader.join(timeout=5)
    if master is not None:
        os.close(master)
    return process.returncode
