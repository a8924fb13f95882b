"""Helpers for running PyTorch distributed code with ``torchrun``, from scripts and notebooks.

What it is for:

- inside a script started by ``torchrun``: pick a backend (:func:`choose_backend`), join the
  process group from torchrun's environment (:func:`setup`, :func:`cleanup`) and print once
  (:func:`print0`, :func:`is_main_process`);
- inside a notebook: start a script under ``torchrun`` with :func:`launch`, see its output
  in the cell as it comes, and get a clear error, never a hung cell or stray processes,
  when it fails or runs too long.

What it is not: a wrapper around ``DistributedDataParallel``, ``DistributedSampler`` or
checkpointing. Those stay in plain PyTorch in the lesson scripts (``scripts/train_ddp.py``),
where the reader can see them. Distributed code does not run inside the notebook kernel
itself: processes that join a process group are started by ``torchrun``.

Importing this module makes no CUDA call and changes nothing: the checks happen when a
function is called.
"""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections import deque
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

import torch
import torch.distributed as dist

__all__ = [
    "DistInfo",
    "LaunchError",
    "LaunchResult",
    "TORCHRUN_VARS",
    "choose_backend",
    "cleanup",
    "is_main_process",
    "launch",
    "print0",
    "setup",
]

# The variables torchrun sets in every worker; setup() needs all of them.
TORCHRUN_VARS = (
    "RANK",
    "WORLD_SIZE",
    "LOCAL_RANK",
    "LOCAL_WORLD_SIZE",
    "MASTER_ADDR",
    "MASTER_PORT",
)

# launch() marks every process it starts with this variable (torchrun passes its environment
# on to the workers), so that it can find them even after they have been re-parented.
_LAUNCH_TAG = "D2LGPU_LAUNCH_ID"


def _gpus_for(nproc_per_node: int) -> bool:
    """True when CUDA is usable and there is one GPU for each of the local processes."""
    return torch.cuda.is_available() and torch.cuda.device_count() >= nproc_per_node


def _local_world_size() -> int:
    return int(os.environ.get("LOCAL_WORLD_SIZE", "1"))


def choose_backend(nproc_per_node: int | None = None) -> str:
    """Return ``"nccl"`` when every local process can have a GPU of its own, else ``"gloo"``.

    ``nproc_per_node`` is the number of processes on this machine; by default torchrun's
    ``LOCAL_WORLD_SIZE``, or 1 outside torchrun. NCCL needs one GPU per process: two ranks
    on one GPU make NCCL fail or hang, so with fewer GPUs than processes we use gloo, which
    runs on the CPU.
    """
    n = _local_world_size() if nproc_per_node is None else nproc_per_node
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError(f"nproc_per_node must be an int >= 1, got {n!r}")
    return "nccl" if _gpus_for(n) else "gloo"


@dataclass(frozen=True)
class DistInfo:
    """Where this process stands in the job, as returned by :func:`setup`."""

    rank: int
    world_size: int
    local_rank: int
    backend: str
    device: torch.device


def _launch_hint() -> str:
    script = sys.argv[0] if sys.argv and sys.argv[0].endswith(".py") else "your_script.py"
    return (
        "launch it with torchrun, which starts one process per rank and sets these variables, "
        f"for example:\n    torchrun --standalone --nproc-per-node=2 {script}\n"
        "or, from a notebook: d2lgpu.distributed.launch(" + repr(script) + ", nproc=2)"
    )


def setup(timeout_s: float = 300, backend: str | None = None) -> DistInfo:
    """Join the process group described by torchrun's environment; return a :class:`DistInfo`.

    ``backend`` is ``"nccl"``, ``"gloo"`` or ``None`` (:func:`choose_backend` decides).
    If ``"nccl"`` is asked but this machine has fewer GPUs than local processes, it falls
    back to ``"gloo"`` and prints why. With nccl, each process uses GPU ``LOCAL_RANK``.
    ``timeout_s`` bounds how long a collective waits for the other ranks before failing.

    Raises ``RuntimeError`` with the command to use when torchrun's variables are missing.
    """
    if not timeout_s > 0:
        raise ValueError(f"timeout_s must be > 0, got {timeout_s!r}")
    if backend not in (None, "nccl", "gloo"):
        raise ValueError(f"backend must be 'nccl', 'gloo' or None, got {backend!r}")
    missing = [name for name in TORCHRUN_VARS if name not in os.environ]
    if missing:
        raise RuntimeError(
            f"not started by torchrun: {', '.join(missing)} not set in the environment; "
            + _launch_hint()
        )
    if dist.is_initialized():
        raise RuntimeError("the process group is already initialized; call cleanup() first")
    rank = int(os.environ["RANK"])
    world_size = int(os.environ["WORLD_SIZE"])
    local_rank = int(os.environ["LOCAL_RANK"])
    local_world_size = int(os.environ["LOCAL_WORLD_SIZE"])

    if backend is None:
        backend = choose_backend(local_world_size)
    elif backend == "nccl" and not _gpus_for(local_world_size):
        gpus = torch.cuda.device_count() if torch.cuda.is_available() else 0
        if local_rank == 0:
            print(
                f"[rank {rank}] nccl needs one GPU per process: {local_world_size} processes "
                f"on this machine but {gpus} GPU(s); falling back to gloo",
                flush=True,
            )
        backend = "gloo"

    timeout = timedelta(seconds=timeout_s)
    if backend == "nccl":
        device = torch.device("cuda", local_rank)
        # Before init: otherwise every rank's NCCL communicator lands on GPU 0.
        torch.cuda.set_device(device)
        dist.init_process_group(backend, timeout=timeout, device_id=device)
    else:
        device = torch.device("cpu")
        dist.init_process_group(backend, timeout=timeout)
    return DistInfo(rank, world_size, local_rank, backend, device)


def cleanup() -> None:
    """Leave the process group, if this process is in one (safe to call twice)."""
    if dist.is_available() and dist.is_initialized():
        dist.destroy_process_group()


def is_main_process() -> bool:
    """True on rank 0, and in a process that is not part of a distributed job.

    Before :func:`setup` it reads torchrun's ``RANK`` variable, so it is right from the start.
    """
    if dist.is_available() and dist.is_initialized():
        return dist.get_rank() == 0
    return int(os.environ.get("RANK", "0")) == 0


def print0(*args, **kwargs) -> None:
    """``print`` on rank 0 only (or always, when not distributed); flushes by default."""
    if is_main_process():
        kwargs.setdefault("flush", True)
        print(*args, **kwargs)


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


def _check_int(name: str, value, minimum: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, got {type(value).__name__} {value!r}")
    if value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}")


def _tagged_pids(tag: str) -> list[int]:
    """The live processes whose environment holds ``D2LGPU_LAUNCH_ID=tag`` (Linux /proc)."""
    needle = f"{_LAUNCH_TAG}={tag}".encode()
    found = []
    proc = Path("/proc")
    if not proc.is_dir():  # not Linux: we can only reach torchrun's process group
        return found
    for entry in proc.iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if needle in (entry / "environ").read_bytes().split(b"\0"):
                state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
                if state != "Z":  # a zombie is already dead, its parent will reap it
                    found.append(int(entry.name))
        except OSError:  # gone meanwhile, or not ours
            continue
    return found


def _kill_all(pids, sig) -> None:
    for pid in pids:
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            pass


def _stop(proc: subprocess.Popen, tag: str, grace_s: float) -> None:
    """End torchrun and every worker it started, gently first.

    SIGTERM goes to torchrun alone: it forwards it to its workers and waits for them. We
    never SIGKILL torchrun first, because its workers run in sessions of their own: killed
    outright, torchrun leaves them running as orphans. Only after ``grace_s`` do we SIGKILL
    whatever still carries our tag, then torchrun's process group.
    """
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=grace_s)
        except subprocess.TimeoutExpired:
            pass
    leftovers = _tagged_pids(tag)
    if leftovers:
        _kill_all(leftovers, signal.SIGTERM)
        deadline = time.monotonic() + min(grace_s, 5.0)
        while leftovers and time.monotonic() < deadline:
            time.sleep(0.1)
            leftovers = _tagged_pids(tag)
    _kill_all(_tagged_pids(tag), signal.SIGKILL)
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGKILL)  # the last resort
        except ProcessLookupError:
            pass
    proc.wait()


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
    (see the comment in the code).

    Raises :class:`LaunchError` (with the exit code and the last ``tail_lines`` lines) when
    torchrun exits non-zero or runs past ``timeout_s`` seconds. On timeout or
    ``KeyboardInterrupt`` torchrun gets SIGTERM and ``grace_s`` seconds to stop its workers;
    after that every process of the launch is killed. No process is left behind.
    """
    script = Path(script)
    if not script.is_file():
        raise FileNotFoundError(f"script: no such file {str(script)!r}")
    _check_int("nproc", nproc, 1)
    _check_int("nnodes", nnodes, 1)
    _check_int("tail_lines", tail_lines, 0)
    if isinstance(timeout_s, bool) or not isinstance(timeout_s, int | float) or not timeout_s > 0:
        raise ValueError(f"timeout_s must be a number > 0, got {timeout_s!r}")
    if not grace_s > 0:
        raise ValueError(f"grace_s must be > 0, got {grace_s!r}")
    if isinstance(args, str) or isinstance(extra_torchrun_args, str):
        raise TypeError("args and extra_torchrun_args must be sequences of strings, not a str")
    extra = [str(a) for a in extra_torchrun_args]
    if nnodes > 1 and not any(a.startswith(("--rdzv", "--master")) for a in extra):
        raise ValueError(
            "nnodes > 1 needs a rendezvous in extra_torchrun_args, e.g. "
            "['--rdzv-backend=c10d', '--rdzv-endpoint=HOST:29400', '--rdzv-id=JOB']"
        )

    cmd = [sys.executable, "-m", "torch.distributed.run"]
    cmd += ["--standalone"] if nnodes == 1 else [f"--nnodes={nnodes}"]
    cmd += [f"--nproc-per-node={nproc}", *extra, str(script), *(str(a) for a in args)]

    tag = uuid.uuid4().hex
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
    child_env[_LAUNCH_TAG] = tag

    lines: list[str] = []
    tail: deque[str] = deque(maxlen=max(tail_lines, 1))
    start = time.monotonic()
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
    # A thread reads the pipe, so that the main thread can watch the clock.
    lines_q: queue.Queue[str | None] = queue.Queue()

    def _read() -> None:
        for line in proc.stdout:
            lines_q.put(line)
        lines_q.put(None)

    reader = threading.Thread(target=_read, daemon=True)
    reader.start()

    def _take(line: str) -> None:
        lines.append(line)
        tail.append(line.rstrip("\n"))
        if echo:
            print(line, end="", flush=True)

    timed_out = False
    try:
        while True:
            remaining = timeout_s - (time.monotonic() - start)
            if remaining <= 0:
                timed_out = True
                break
            try:
                line = lines_q.get(timeout=min(remaining, 0.5))
            except queue.Empty:
                # An orphaned worker can hold the pipe open after torchrun has exited:
                # then torchrun's exit, not the end of the output, ends the wait.
                if proc.poll() is not None:
                    reader.join(timeout=1.0)
                    if reader.is_alive():
                        break
                continue
            if line is None:  # end of output: torchrun is exiting
                break
            _take(line)
        if not timed_out:
            try:
                proc.wait(timeout=max(timeout_s - (time.monotonic() - start), 0.1))
            except subprocess.TimeoutExpired:
                timed_out = True
    finally:
        # Reached on success, failure, timeout and KeyboardInterrupt alike. When torchrun has
        # exited already this only reaps a worker it could not stop, or one orphaned by a
        # SIGKILL to torchrun from elsewhere.
        _stop(proc, tag, grace_s if proc.poll() is None else min(grace_s, 5.0))
        reader.join(timeout=2.0)
        while not lines_q.empty():
            line = lines_q.get_nowait()
            if line is not None:
                _take(line)
        if proc.stdout is not None:
            proc.stdout.close()

    seconds = time.monotonic() - start
    result = LaunchResult(proc.returncode, "".join(lines), seconds)
    if timed_out or proc.returncode != 0:
        shown = "\n".join(list(tail)[-tail_lines:]) if tail_lines else ""
        what = (
            f"timed out after {timeout_s:g} s (stopped; exit code {proc.returncode})"
            if timed_out
            else f"failed with exit code {proc.returncode} after {seconds:.1f} s"
        )
        raise LaunchError(
            f"torchrun {script.name} {what}; last {len(shown.splitlines())} lines of output:\n"
            + shown,
            result,
            timed_out=timed_out,
        )
    return result
