"""Choosing devices, and reporting what the machine has.

This module is the one place in the course that decides a default device.
Everything else takes a ``device`` argument.

What it is for:

* ``cpu()``, ``gpu(i)``, ``num_gpus()``, ``try_gpu(i)``, ``try_all_gpus()``: the
  small device helpers of *Dive into Deep Learning*, with the documented
  behaviour (``try_all_gpus()`` returns ``[cpu]`` on a machine without a GPU).
* ``default_device()``: ``try_gpu()``, unless the environment variable
  ``D2LGPU_DEVICE`` forces one (``cpu``, ``cuda`` or ``cuda:N``).
* ``env_report()`` / ``format_env_report()``: versions and hardware, as printed
  by ``python -m d2lgpu env``.

What it is not: a device manager. It never calls ``torch.cuda.set_device`` and
never touches CUDA at import time; the first CUDA query happens when you call
one of these functions.
"""

from __future__ import annotations

import os
import platform

import torch

from ._validate import check_int

__all__ = [
    "DEVICE_ENV_VAR",
    "cpu",
    "gpu",
    "num_gpus",
    "try_gpu",
    "try_all_gpus",
    "default_device",
    "env_report",
    "format_env_report",
]

DEVICE_ENV_VAR = "D2LGPU_DEVICE"


def cpu() -> torch.device:
    """Return the CPU device."""
    return torch.device("cpu")


def gpu(i: int = 0) -> torch.device:
    """Return the ``i``-th CUDA device, whether or not it exists.

    Creating a ``torch.device`` does not touch the GPU; using it does. Use
    :func:`try_gpu` when the code must also run without a GPU.
    """
    check_int("i", i, minimum=0, what="a GPU index")
    return torch.device(f"cuda:{i}")


def num_gpus() -> int:
    """Return the number of CUDA GPUs visible to this process (0 without CUDA)."""
    if not torch.cuda.is_available():
        return 0
    return torch.cuda.device_count()


def try_gpu(i: int = 0) -> torch.device:
    """Return ``gpu(i)`` if GPU ``i`` exists, else ``cpu()``."""
    check_int("i", i, minimum=0, what="a GPU index")
    if num_gpus() >= i + 1:
        return gpu(i)
    return cpu()


def try_all_gpus() -> list[torch.device]:
    """Return all GPUs, or ``[cpu()]`` when there is none.

    The list is never empty, so ``devices[0]`` and ``len(devices)`` are always
    safe (d2l documents this behaviour; its code returns ``[]``).
    """
    devices = [gpu(i) for i in range(num_gpus())]
    return devices if devices else [cpu()]


def default_device() -> torch.device:
    """Return the device the course uses when none is given.

    ``D2LGPU_DEVICE`` overrides the choice: ``cpu`` forces the CPU (useful to
    compare with a GPU run), ``cuda`` or ``cuda:N`` asks for a GPU and fails
    clearly when it is not there. Otherwise this is ``try_gpu()``.

    Note that ``torch.accelerator.current_accelerator()`` answers ``cuda`` on a
    machine with a CUDA build of torch and no GPU, unless it is called with
    ``check_available=True``; this function asks the driver instead.
    """
    forced = os.environ.get(DEVICE_ENV_VAR, "").strip()
    if not forced:
        return try_gpu()
    if forced == "cpu":
        return cpu()
    if forced == "cuda" or (forced.startswith("cuda:") and forced[5:].isdigit()):
        index = int(forced[5:]) if ":" in forced else 0
        if num_gpus() <= index:
            raise ValueError(
                f"{DEVICE_ENV_VAR}={forced!r} asks for GPU {index}, but this machine "
                f"has {num_gpus()} GPU(s) visible; unset {DEVICE_ENV_VAR} or set it to 'cpu'"
            )
        return gpu(index)
    raise ValueError(
        f"{DEVICE_ENV_VAR}={forced!r} is not a device this course knows; "
        "allowed: 'cpu', 'cuda' or 'cuda:N'"
    )


def env_report() -> dict:
    """Return versions and hardware as a plain dictionary (JSON-friendly)."""
    report = {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "torch": torch.__version__,
        "cuda_build": torch.version.cuda,  # None for a CPU-only build
        "cuda_available": torch.cuda.is_available(),
        "cudnn": _cudnn_version(),
        "cpu_threads": torch.get_num_threads(),
        "cpu_count": os.cpu_count(),
        "gpus": [],
    }
    try:
        import torchvision

        report["torchvision"] = torchvision.__version__
    except ImportError:
        report["torchvision"] = None
    for i in range(num_gpus()):
        props = torch.cuda.get_device_properties(i)
        report["gpus"].append(
            {
                "index": i,
                "name": props.name,
                "memory_gib": round(props.total_memory / 2**30, 1),
                "compute_capability": f"{props.major}.{props.minor}",
                "multiprocessors": props.multi_processor_count,
                # bf16 tensor cores arrived with compute capability 8.0 (Ampere).
                "bf16": props.major >= 8,
            }
        )
    return report


def format_env_report(report: dict | None = None) -> str:
    """Return :func:`env_report` as readable lines."""
    r = env_report() if report is None else report
    lines = [
        f"python       {r['python']} on {r['platform']}",
        f"torch        {r['torch']} (CUDA build: {r['cuda_build'] or 'none, CPU only'})",
        f"torchvision  {r.get('torchvision') or 'not installed'}",
        f"cuDNN        {r['cudnn'] or 'not available'}",
        f"CPU          {r['cpu_count']} logical cores, torch uses {r['cpu_threads']} threads",
    ]
    if not r["gpus"]:
        lines.append("GPUs         none visible: the course runs on the CPU")
    for g in r["gpus"]:
        lines.append(
            f"GPU {g['index']}        {g['name']}, {g['memory_gib']} GiB, "
            f"compute capability {g['compute_capability']}, "
            f"{g['multiprocessors']} SMs, bf16 {'yes' if g['bf16'] else 'no'}"
        )
    return "\n".join(lines)


def _cudnn_version() -> str | None:
    if not torch.backends.cudnn.is_available():
        return None
    v = torch.backends.cudnn.version()  # e.g. 92400 for 9.24.0
    return f"{v // 10000}.{v // 100 % 100}.{v % 100}"
