"""What the tests of scripts/train_ddp.py share: how to run it, and how to compare runs.

The fixtures built on it (``ref1``, ``ref2``, ``script``) are in tests/conftest.py. The
reference runs are made once per pytest session, whichever pytest-xdist process first asks
for one (the others wait for it and read its result from disk), so the DDP tests can be
spread over processes test by test.
"""

import importlib.util
import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import torch
from session_once import once_per_session

from d2lgpu.distributed import choose_backend
from d2lgpu.launcher import LaunchResult, launch
from d2lgpu.processes import free_port

from .procs import TAG, new_tag, wait_gone

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "train_ddp.py"
# 512 samples, global batch 32: 16 optimizer steps per epoch, 48 in the 3 epochs. Short on
# purpose: float differences between layouts grow with the number of steps.
EPOCHS = 3


def layout_backend() -> str:
    """The backend of every run these tests compare: the one 2 processes on this machine get.

    Runs compare only on the same device: on one GPU, 2 ranks use gloo on the CPU, and so
    must the 1-process reference (which alone would take the GPU) and the two 1-process
    "nodes" (which would both take GPU 0 under nccl)."""
    return choose_backend(2)


COMMON = ["--samples", "512", "--batch-size", "32", "--lr", "0.05", "--seed", "0"]
BACKEND = layout_backend()
COMMON += ["--backend", BACKEND]
# The stated tolerance for "the same parameters" across process layouts. Same layout
# (resume, restart, two nodes of one process vs one node of two) is expected to be bitwise.
RTOL, ATOL = 1e-4, 1e-5
NO_TORCHRUN = ("RANK", "WORLD_SIZE", "LOCAL_RANK", "LOCAL_WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT")


def train(ckpt_dir, nproc, *args, tag, env=None, timeout_s=120, **launch_kwargs) -> LaunchResult:
    """torchrun train_ddp.py through the notebook launcher (echo: pytest shows it on failure)."""
    return launch(
        SCRIPT,
        nproc,
        args=[*COMMON, "--checkpoint-dir", str(ckpt_dir), *args],
        env={TAG: tag, **(env or {})},
        timeout_s=timeout_s,
        **launch_kwargs,
    )


def run_direct(*args, tag, world_size=None, timeout_s=60):
    """The script without torchrun: plain python, with torchrun's variables faked for a world
    of `world_size` (this process as rank 0), or none at all."""
    env = {k: v for k, v in os.environ.items() if k not in NO_TORCHRUN}
    env.update({TAG: tag, "OMP_NUM_THREADS": "1"})
    if world_size is not None:
        env.update(
            RANK="0",
            WORLD_SIZE=str(world_size),
            LOCAL_RANK="0",
            LOCAL_WORLD_SIZE=str(world_size),
            MASTER_ADDR="127.0.0.1",
            MASTER_PORT=str(free_port()),
        )
    start = time.monotonic()
    proc = subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout_s,
    )
    return proc, time.monotonic() - start


def params(ckpt_dir):
    return torch.load(Path(ckpt_dir) / "final.pt", weights_only=True)


def max_diff(a, b):
    assert a.keys() == b.keys()
    return max((a[k] - b[k]).abs().max().item() for k in a)


def assert_same_params(actual, expected, what, *, exact=False):
    diff = max_diff(actual, expected)
    print(f"{what}: max |difference| of final parameters = {diff:.3g}")
    if exact:
        assert diff == 0, f"{what}: expected identical parameters, max difference {diff:.3g}"
    for k in expected:
        torch.testing.assert_close(actual[k], expected[k], rtol=RTOL, atol=ATOL, msg=f"{what}: {k}")


@dataclass
class Run:
    dir: Path
    output: str
    params: dict
    seconds: float


def device_of(run) -> str:
    """The device rank 0 trained on, as the script logs it."""
    return re.search(r"node\(s\), device (\S+),", run.output).group(1)


def reference_run(tmp_path_factory, nproc):
    """Uninterrupted training with `nproc` processes, run once for the whole session
    (session_once.py: whichever pytest-xdist process asks first runs it, the others read
    what it recorded)."""

    def make(ckpt_dir):
        tag = new_tag()
        try:
            result = train(ckpt_dir, nproc, "--epochs", str(EPOCHS), tag=tag)
        finally:
            left = wait_gone(tag)
        assert not left, f"processes left behind by the reference run: {left}"
        return {"output": result.output, "seconds": result.seconds}

    ckpt_dir, done = once_per_session(tmp_path_factory, f"ref{nproc}", make)
    return Run(ckpt_dir, done["output"], params(ckpt_dir), done["seconds"])


def load_script_module():
    if str(SCRIPT.parent) not in sys.path:  # train_ddp_setup.py, which it imports, is beside it
        sys.path.insert(0, str(SCRIPT.parent))
    spec = importlib.util.spec_from_file_location("train_ddp", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
