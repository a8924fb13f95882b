"""Start a script under ``torchrun`` from a notebook, and never leave a process behind.

What it is for: :func:`launch` runs ``python -m torch.distributed.run ... script args``,
shows every rank's output in the cell as it comes, and returns a :class:`LaunchResult`; when
the job fails or runs too long it raises :class:`LaunchError` with the exit code and the last
lines of output, after stopping torchrun and every worker it started. Notebooks import it from
here, ``from d2lgpu.launcher import launch``.

What it is not: code that runs inside the job. Processes that join a process group are
started by torchrun; what they need (the backend rule) is in :mod:`d2lgpu.distributed`, and
the lesson scripts show ``init_process_group`` and ``DistributedDataParallel`` in plain
PyTorch.
"""

from __future__ import annotations

import contextlib
import os
import queue
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import deque
from dataclasses import dataclass
from pathlib import Path

from ._validate import check_int, check_positive
from .processes import stop_job

__all__ = [
    "LAUNCH_TAG",
    "LaunchError",
    "LaunchResult",
    "failure_message",
    "launch",
    "torchrun_command",
]

# launch() marks every process it starts with this variable (torchrun passes its environment
# on to the workers), so that it can find them even after they have been re-parented.
LAUNCH_TAG = "D2LGPU_LAUNCH_ID"


@dataclass(frozen=True)
class LaunchResult:
    """What :func:`launch` saw: torchrun's exit code, the whole output, the wall time."""

    returncode: int
    output: str
    seconds: float


class LaunchError(RuntimeError):
    """A :func:`launch` that failed or timed out.

    ``.result`` holds what it saw (exit code, output, seconds); ``.timed_out`` says whether it
    was stopped for running past ``timeout_s``.
    """

    def __init__(self, message: str, result: LaunchResult, *, timed_out: bool = False):
        super().__init__(message)
        self.result = result
        self.timed_out = timed_out


def torchrun_command(
    script, nproc: int = 2, args=(), *, nnodes: int = 1, extra=(), log_dir=None
) -> list:
    """The command :func:`launch` runs: this Python's torchrun, one node unless told, with
    its logs and workers' error files in ``log_dir`` when given."""
    if isinstance(args, str) or isinstance(extra, str):
        raise ValueError("args and extra_torchrun_args must be sequences of strings, not a str")
    check_int("nproc", nproc, minimum=1)
    check_int("nnodes", nnodes, minimum=1)
    extra = [str(a) for a in extra]
    if nnodes > 1 and not any(a.startswith(("--rdzv", "--master")) for a in extra):
        raise ValueError(
            "nnodes > 1 needs a rendezvous in extra_torchrun_args, e.g. "
            "['--rdzv-backend=c10d', '--rdzv-endpoint=HOST:29400', '--rdzv-id=JOB']"
        )
    cmd = [sys.executable, "-m", "torch.distributed.run"]
    cmd += ["--standalone"] if nnodes == 1 else [f"--nnodes={nnodes}"]
    cmd += [] if log_dir is None else [f"--log-dir={log_dir}"]
    return cmd + [f"--nproc-per-node={nproc}", *extra, str(script), *(str(a) for a in args)]


@contextlib.contextmanager
def _log_dir(extra):
    """A folder for torchrun's logs, removed afterwards; ``None`` when ``extra`` names one.
    (Without ``--log-dir``, torchrun makes a ``torchelastic_*`` folder in the system's
    temporary folder at each launch and leaves it there.)"""
    if any(str(a).startswith(("--log-dir", "--log_dir")) for a in extra):
        yield None
        return
    with tempfile.TemporaryDirectory(prefix="d2lgpu-torchrun-", ignore_cleanup_errors=True) as d:
        yield d


def _child_env(env: dict[str, str] | None, tag: str) -> dict[str, str]:
    child_env = {**os.environ, **(env or {})}
    # N processes on a machine with few cores: if each ran one OpenMP thread per core they
    # would fight over the cores and run slower than one process. One thread each (what
    # torchrun itself sets for nproc > 1; we also do it for nproc = 1, so that the numbers
    # do not depend on the layout).
    child_env.setdefault("OMP_NUM_THREADS", "1")
    # Print each line as it is written, not in 8 kB blocks when the pipe is full.
    child_env.setdefault("PYTHONUNBUFFERED", "1")
    # By default torchrun's workers share the rendezvous TCPStore, which outlives a restart:
    # after --max-restarts kicks in, a new worker can read the previous attempt's addresses
    # from it and fail to connect (pytorch/pytorch#135712, #167288). Each attempt then gets
    # a store of its own, hosted by its rank 0.
    child_env.setdefault("TORCH_DISABLE_SHARE_RDZV_TCP_STORE", "1")
    child_env[LAUNCH_TAG] = tag
    return child_env


class _Lines:
    """torchrun's output, read by a thread so that the caller can watch the clock."""

    def __init__(self, proc: subprocess.Popen, echo: bool, tail_lines: int):
        self.proc, self.echo = proc, echo
        self.lines: list[str] = []
        self.tail: deque[str] = deque(maxlen=max(tail_lines, 1))
        self._q: queue.Queue[str | None] = queue.Queue()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None  # started with stdout=PIPE
        for line in self.proc.stdout:
            self._q.put(line)
        self._q.put(None)

    def _take(self, line: str) -> None:
        self.lines.append(line)
        self.tail.append(line.rstrip("\n"))
        if self.echo:
            print(line, end="", flush=True)

    def follow(self, deadline: float) -> bool:
        """Take lines until the output ends or torchrun exits; False if the deadline came."""
        while (remaining := deadline - time.monotonic()) > 0:
            try:
                line = self._q.get(timeout=min(remaining, 0.5))
            except queue.Empty:
                # An orphaned worker can hold the pipe open after torchrun has exited:
                # then torchrun's exit, not the end of the output, ends the wait.
                if self.proc.poll() is not None:
                    self._reader.join(timeout=1.0)
                    if self._reader.is_alive():
                        return True
                continue
            if line is None:  # end of output: torchrun is exiting
                return True
            self._take(line)
        return False

    def drain(self) -> None:
        """Take what the reader still holds, after the processes are gone."""
        self._reader.join(timeout=2.0)
        while not self._q.empty():
            line = self._q.get_nowait()
            if line is not None:
                self._take(line)
        if self.proc.stdout is not None:
            self.proc.stdout.close()


def _run(cmd, child_env, tag, *, timeout_s, grace_s, echo, tail_lines):
    """Run ``cmd``; return (returncode, lines, tail, timed_out), with every process stopped."""
    # A session of its own: a Ctrl-C in the terminal reaches us, not torchrun behind our
    # back, and killpg reaches torchrun's group as a last resort.
    proc = subprocess.Popen(
        cmd,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env=child_env,
        start_new_session=True,
        text=True,
        errors="replace",
        bufsize=1,
    )
    out = _Lines(proc, echo, tail_lines)
    deadline = time.monotonic() + timeout_s
    timed_out = False
    try:
        timed_out = not out.follow(deadline)
        if not timed_out:
            try:
                proc.wait(timeout=max(deadline - time.monotonic(), 0.1))
            except subprocess.TimeoutExpired:
                timed_out = True
    finally:
        # Reached on success, failure, timeout and KeyboardInterrupt alike. When torchrun has
        # exited already this only reaps a worker it could not stop, or one orphaned by a
        # SIGKILL to torchrun from elsewhere.
        stop_job(proc, LAUNCH_TAG, tag, grace_s if proc.poll() is None else min(grace_s, 5.0))
        out.drain()
    return proc.returncode, out.lines, out.tail, timed_out


# With TORCH_DISABLE_SHARE_RDZV_TCP_STORE=1 torchrun picks a free port for rank 0's store and
# hands it to the workers; another program can take it before rank 0 listens on it. Then
# rank 0's store fails with this error: most likely the machine's doing, not the script's, so
# a one-node launch() tries once more. (A script that starts a store of its own on a taken
# port fails the same way twice, and is reported then.)
PORT_TAKEN_NOTE = (
    "launch: rank 0 could not listen on the port torchrun picked for it (EADDRINUSE; most "
    "likely another program took it first): launching once more"
)


def _port_taken(lines: list[str]) -> bool:
    return any("server socket has failed to listen" in ln and "EADDRINUSE" in ln for ln in lines)


def launch(
    script,
    nproc: int = 2,
    args=(),
    *,
    timeout_s: float = 120,
    env: dict[str, str] | None = None,
    nnodes: int = 1,
    extra_torchrun_args=(),
    echo: bool = True,
    tail_lines: int = 30,
    grace_s: float = 15.0,
) -> LaunchResult:
    """Run ``script`` under torchrun with ``nproc`` processes and wait for it, from a notebook.

    The command is ``python -m torch.distributed.run --standalone --nproc-per-node=N script
    args...`` (for ``nnodes > 1``, ``--standalone`` is left out and ``extra_torchrun_args``
    must give the rendezvous, e.g. ``["--rdzv-backend=c10d", "--rdzv-endpoint=host:29400",
    "--rdzv-id=job1"]``). The output of all ranks is printed line by line as it arrives
    (``echo=False`` to keep quiet) and returned in a :class:`LaunchResult`.

    ``env`` adds to (and overrides) this process's environment. Unless given there,
    ``OMP_NUM_THREADS`` is set to 1, so that N processes do not each start one thread per
    core, and ``TORCH_DISABLE_SHARE_RDZV_TCP_STORE`` to 1, so that ``--max-restarts`` works
    (see the comment in the code). torchrun's logs and the workers' error files go to a
    temporary folder, removed when the launch ends, unless ``extra_torchrun_args`` names a
    ``--log-dir``.

    When, on one node, rank 0 could not listen on the port that torchrun picked for it
    (EADDRINUSE: most likely another program took it first), the job is launched once more,
    within the same ``timeout_s``, with a note in the output when ``echo`` is on; the result
    (exit code, output, seconds) is then the second launch's.

    Raises :class:`LaunchError` (with the exit code and the last ``tail_lines`` lines) when
    torchrun exits non-zero or runs past ``timeout_s`` seconds. On timeout or
    ``KeyboardInterrupt`` torchrun gets SIGTERM and ``grace_s`` seconds to stop its workers;
    after that every process of the launch is killed. No process is left behind.
    """
    script = Path(script)
    if not script.is_file():
        raise FileNotFoundError(f"script: no such file {str(script)!r}")
    check_int("tail_lines", tail_lines, minimum=0)
    check_positive("timeout_s", timeout_s)
    check_positive("grace_s", grace_s)
    with _log_dir(extra_torchrun_args) as log_dir:
        cmd = torchrun_command(
            script, nproc, args, nnodes=nnodes, extra=extra_torchrun_args, log_dir=log_dir
        )
        return _launch(
            script.name, cmd, env=env, nnodes=nnodes, timeout_s=timeout_s, grace_s=grace_s,
            echo=echo, tail_lines=tail_lines,
        )  # fmt: skip


def _launch(name, cmd, *, env, nnodes, timeout_s, grace_s, echo, tail_lines) -> LaunchResult:
    deadline = time.monotonic() + timeout_s  # for both attempts together
    for attempt in (1, 2):
        tag = uuid.uuid4().hex
        start = time.monotonic()
        returncode, lines, tail, timed_out = _run(
            cmd,
            _child_env(env, tag),
            tag,
            timeout_s=deadline - start,
            grace_s=grace_s,
            echo=echo,
            tail_lines=tail_lines,
        )
        seconds = time.monotonic() - start
        again = returncode != 0 and not timed_out and nnodes == 1 and _port_taken(lines)
        if attempt == 2 or not again or deadline - time.monotonic() < 1.0:
            break
        if echo:
            print(PORT_TAKEN_NOTE, flush=True)
    result = LaunchResult(returncode, "".join(lines), seconds)
    if timed_out or returncode != 0:
        shown = list(tail)[-tail_lines:] if tail_lines else []
        message = failure_message(name, result, shown, timeout_s if timed_out else None)
        raise LaunchError(message, result, timed_out=timed_out)
    return result


def failure_message(name: str, result: LaunchResult, tail: list[str], timeout_s=None) -> str:
    """What :class:`LaunchError` says: how the launch ended, then the last lines of output.
    ``timeout_s`` is given when the launch was stopped for running past it."""
    what = (
        f"timed out after {timeout_s:g} s (stopped; exit code {result.returncode})"
        if timeout_s is not None
        else f"failed with exit code {result.returncode} after {result.seconds:.1f} s"
    )
    return f"torchrun {name} {what}; last {len(tail)} lines of output:\n" + "\n".join(tail)
