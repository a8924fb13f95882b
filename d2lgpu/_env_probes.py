"""What the machine says about itself, for :func:`d2lgpu.devices.env_report` and the bench: what
a device is called (the GPU's name, Apple's chip, the CPU's model), the NVIDIA driver, cuDNN's
version, the memory Metal gives Apple's GPU, and the commit of the course's checkout. Each
answers a generic label, None or "unknown (...)" rather than fail.

What it is not: the report (:func:`d2lgpu.devices.env_report`) or its text
(:mod:`d2lgpu._env_text`).
"""

from __future__ import annotations

import platform
import subprocess
from pathlib import Path

import torch

__all__ = [
    "course_commit",
    "cpu_name",
    "cudnn_version",
    "device_name",
    "driver_version",
    "mac_chip",
    "mps_memory_gib",
]


def device_name(device) -> str:
    """What ``device`` is: the GPU's name, Apple's chip name for ``mps``, the CPU's model name."""
    device = torch.device(device)
    if device.type == "cuda":
        return torch.cuda.get_device_name(device)
    if device.type == "mps":
        return f"{mac_chip() or 'Apple silicon'} GPU"
    return cpu_name()


def cpu_name() -> str:
    """The CPU's model name (from /proc/cpuinfo on Linux, sysctl on macOS), or a generic label."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return mac_chip() or platform.processor() or "CPU"


def mac_chip() -> str | None:
    """The Mac's chip ("Apple M2 Pro"), or None elsewhere."""
    if platform.system() != "Darwin":
        return None
    try:
        out = subprocess.run(
            ["sysctl", "-n", "machdep.cpu.brand_string"], capture_output=True, text=True, timeout=5
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None


def driver_version() -> str | None:
    """The NVIDIA driver's version: nvidia-smi's answer, else what torch's CUDA says, else None.

    nvidia-smi gives the driver itself ("550.54.15"); without it, a working CUDA
    gives the newest CUDA version its driver supports ("supports CUDA 12.4").
    """
    try:
        out = subprocess.run(
            ["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
            capture_output=True, text=True, timeout=15,
        )  # fmt: skip
        found = out.stdout.split()
        if out.returncode == 0 and found:
            return f"{found[0]} (nvidia-smi)"
    except (OSError, subprocess.SubprocessError):
        pass  # no nvidia-smi here, or it hung: ask torch
    if not torch.cuda.is_available():
        return None
    try:  # a CUDA build's, not a torch release's: CPU builds lack it, every CUDA build has it
        version = torch._C._cuda_getDriverVersion()  # type: ignore[attr-defined]
    except AttributeError:
        version = 0
    if not version:
        return None
    return f"supports CUDA {version // 1000}.{version % 1000 // 10} (torch; no nvidia-smi)"


def course_commit(folder: Path | None = None) -> str:
    """The commit of the course checkout that holds ``folder`` (this package's folder).

    ``"f5b0d60"``, with ``" + local changes"`` when a tracked file differs from
    it (files git does not track, such as the learner's ``work/``, do not
    count), or ``"unknown (...)"`` when the package is not run from a checkout
    of the course (installed elsewhere, a downloaded zip) or git is missing.
    """
    folder = Path(__file__).resolve().parent if folder is None else folder
    checkout = folder.parent  # the course's root holds d2lgpu/

    def git(*args):
        # --no-optional-locks: a report must not take git's index lock from a running
        # `git pull` or commit in the same checkout.
        return subprocess.run(
            ["git", "--no-optional-locks", *args],
            cwd=checkout, capture_output=True, text=True, timeout=30,
        )  # fmt: skip

    try:
        found = git("rev-parse", "--show-toplevel", "--short", "HEAD")
        lines = found.stdout.split()
        # A package inside some other repository (a virtual environment kept in
        # the learner's own project) is not a checkout of the course.
        if found.returncode or len(lines) != 2 or Path(lines[0]).resolve() != checkout.resolve():
            return "unknown (not a git checkout)"
        changes = git("status", "--porcelain", "--untracked-files=no")
    except FileNotFoundError:
        return "unknown (git is not installed)"
    except (OSError, subprocess.SubprocessError):
        return "unknown (git did not answer)"
    if changes.returncode:
        return f"{lines[1]} (could not ask git for local changes)"
    return lines[1] + (" + local changes" if changes.stdout.strip() else "")


def mps_memory_gib() -> float | None:
    """The memory Metal recommends for this process, in GiB (shared with the CPU), if reported."""
    recommended = getattr(getattr(torch, "mps", None), "recommended_max_memory", None)
    return None if recommended is None else round(recommended() / 2**30, 1)


def cudnn_version() -> str | None:
    if not torch.backends.cudnn.is_available():
        return None
    v = torch.backends.cudnn.version()
    # From cuDNN 9 the major version counts in ten-thousands (92400 is 9.24.0); before, in
    # thousands (8907 is 8.9.7).
    major = 10000 if v >= 90000 else 1000
    return f"{v // major}.{v % major // 100}.{v % 100}"
