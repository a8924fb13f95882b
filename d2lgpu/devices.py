"""Choosing devices, and reporting what the machine has.

This module is the one place in the course that decides a default device.
Everything else takes a ``device`` argument.

What it is for:

* ``cpu()``, ``gpu(i)``, ``num_gpus()``, ``try_gpu(i)``, ``try_all_gpus()``: the
  small device helpers of *Dive into Deep Learning*, with the documented
  behaviour (``try_all_gpus()`` returns ``[cpu]`` on a machine without a GPU).
  Here "GPU ``i``" means CUDA device ``i``, the hardware the chapters' GPU
  cells are written for.
* ``mps_available()``, ``try_accelerator()``: Apple silicon's GPU (``mps``),
  and the best device present: a CUDA GPU, else ``mps``, else the CPU.
* ``default_device()``: ``try_gpu()``, unless the environment variable
  ``D2LGPU_DEVICE`` forces one (``cpu``, ``mps``, ``cuda`` or ``cuda:N``). Its
  spelling is checked by ``d2lgpu._device_names``, a standard-library-only file
  that ``tools/lab.py`` also uses; what this machine has is checked here.
* ``device_name(device)``: what the device is ("NVIDIA H100 ...", "Apple M2").
* ``env_report()`` / ``format_env_report()``: versions, the interpreter,
  hardware, the NVIDIA driver, ``CUDA_VISIBLE_DEVICES``, ``D2LGPU_DEVICE`` (and
  whether it works here) and the course's commit, as printed by ``make env``
  (``python -m d2lgpu env``): a block to paste into an issue. What the machine
  answers (names, driver, cuDNN, commit) is asked by ``d2lgpu._env_probes``, and
  ``d2lgpu._env_text`` writes the block.
* ``run_fresh_python(code, **env)``: run code in a new Python process, for
  settings that a process reads once (``CUDA_VISIBLE_DEVICES``,
  ``CUBLAS_WORKSPACE_CONFIG``) and a running kernel can no longer change.

What it is not: a device manager. It never calls ``torch.cuda.set_device`` and
never touches CUDA at import time; the first CUDA query happens when you call
one of these functions.
"""

from __future__ import annotations

import os
import platform
import subprocess
import sys
from typing import Any, NoReturn

import torch

from ._device_names import ENV_VAR, DeviceNameError, parse_device_name
from ._env_probes import (
    course_commit,
    cpu_name,
    cudnn_version,
    device_name,
    driver_version,
    mps_memory_gib,
)
from ._env_text import format_report
from ._validate import check_int

__all__ = [
    "DEVICE_ENV_VAR",
    "cpu",
    "gpu",
    "num_gpus",
    "try_gpu",
    "try_all_gpus",
    "mps_available",
    "try_accelerator",
    "cpu_name",
    "default_device",
    "device_name",
    "env_report",
    "format_env_report",
    "run_fresh_python",
]

DEVICE_ENV_VAR = ENV_VAR  # "D2LGPU_DEVICE"


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


def mps_available() -> bool:
    """True when this torch can use Apple silicon's GPU (``mps``): macOS 12.3+ on an M-series chip."""
    backend = getattr(torch.backends, "mps", None)
    return bool(backend is not None and backend.is_available())


def try_accelerator() -> torch.device:
    """The best device present: ``cuda:0``, else ``mps`` (Apple silicon), else ``cpu``."""
    if num_gpus() > 0:
        return gpu(0)
    if mps_available():
        return torch.device("mps")
    return cpu()


def default_device() -> torch.device:
    """Return the device the course uses when none is given.

    ``D2LGPU_DEVICE`` overrides the choice: ``cpu`` forces the CPU (useful to
    compare with a GPU run), ``mps``, ``cuda`` or ``cuda:N`` ask for that
    device and fail clearly when it is not there. Case and surrounding spaces
    are ignored; an empty value counts as unset. Otherwise this is
    ``try_gpu()``, as in the chapters: a CUDA GPU, else the CPU. On Apple
    silicon, ``D2LGPU_DEVICE=mps`` picks its GPU; :func:`try_accelerator`
    (which ``python -m d2lgpu bench`` uses) picks it by itself.

    Raises ``ValueError`` for a value the course does not know
    (``D2LGPU_DEVICE='banana' is not a device this course knows (allowed: cpu,
    cuda, cuda:N, mps)``) or a device this machine lacks (``cuda:7`` with no
    GPU, ``mps`` off a Mac).

    Note that ``torch.accelerator.current_accelerator()`` answers ``cuda`` on a
    machine with a CUDA build of torch and no GPU, unless it is called with
    ``check_available=True``; this function asks the driver instead.
    """
    forced = _forced_device(os.environ.get(DEVICE_ENV_VAR, ""))
    return try_gpu() if forced is None else forced


def _forced_device(value: str) -> torch.device | None:
    """The device that ``value`` of ``D2LGPU_DEVICE`` names on this machine; None if blank.

    The spelling is :func:`~d2lgpu._device_names.parse_device_name`'s rule, the one
    ``tools/lab.py`` checks before torch is installed; what this machine has is
    checked here. Raises :class:`~d2lgpu._device_names.DeviceNameError`.
    """
    parsed = parse_device_name(value)
    if parsed is None:
        return None
    kind, index = parsed
    if kind == "cpu":
        return cpu()
    if kind == "mps":
        if not mps_available():
            _refuse(
                value,
                "asks for Apple silicon's GPU, which this machine's torch cannot use; "
                f"unset {DEVICE_ENV_VAR} or set it to 'cpu'",
            )
        return torch.device("mps")
    index = 0 if index is None else index
    if num_gpus() <= index:
        _refuse(
            value,
            f"asks for GPU {index}, but this machine has {num_gpus()} GPU(s) visible; "
            f"unset {DEVICE_ENV_VAR} or set it to 'cpu'",
        )
    return gpu(index)


def _refuse(value: str, problem: str) -> NoReturn:
    raise DeviceNameError(value, problem, f"{DEVICE_ENV_VAR}={value!r} {problem}")


def env_report() -> dict:
    """Return versions, hardware, ``D2LGPU_DEVICE`` and the course's commit (JSON-friendly).

    ``interpreter`` is this Python's path (``sys.executable``), ``driver`` the
    NVIDIA driver's version as :func:`d2lgpu._env_probes.driver_version` finds it (None where
    nothing tells it), ``cuda_visible_devices`` the variable as set (None when
    unset): what tells "no GPU" from "a driver too old" or "GPUs hidden".

    ``d2lgpu_device`` says what :func:`default_device` makes of the variable
    here: ``{"value": None or the value, "valid": bool, "device": "cuda:0" or
    None, "problem": None or what is wrong}``. ``course_commit`` is the commit of
    the checkout this package runs from, as ``"f5b0d60"``,
    ``"f5b0d60 + local changes"`` or ``"unknown (...)"``.
    """
    report: dict[str, Any] = {
        "python": platform.python_version(),
        "interpreter": sys.executable,
        "platform": platform.platform(),
        "torch": torch.__version__,
        "cuda_build": torch.version.cuda,  # None for a CPU-only build
        "cuda_available": torch.cuda.is_available(),
        "cudnn": cudnn_version(),
        "cpu_threads": torch.get_num_threads(),
        "cpu_count": os.cpu_count(),
        "gpus": [],
        "mps_available": mps_available(),
        "mps": None,
        "driver": driver_version(),
        "cuda_visible_devices": os.environ.get("CUDA_VISIBLE_DEVICES"),
        "d2lgpu_device": _device_variable(),
        "course_commit": course_commit(),
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
    if report["mps_available"]:
        report["mps"] = {"name": device_name("mps"), "memory_gib": mps_memory_gib()}
    return report


def _device_variable() -> dict:
    """``D2LGPU_DEVICE`` as set here, and the device :func:`default_device` makes of it."""
    entry = {
        "value": os.environ.get(DEVICE_ENV_VAR),
        "valid": True,
        "device": None,
        "problem": None,
    }
    try:
        entry["device"] = str(default_device())
    except DeviceNameError as error:
        entry.update(valid=False, problem=error.problem)
    return entry


def format_env_report(report: dict | None = None, *, paste: bool = False) -> str:
    """Return :func:`env_report` as readable lines, one ``label  value`` per line.

    With ``paste=True`` (as ``python -m d2lgpu env`` prints it) the lines are
    inside a fenced code block, after a line saying to paste it, so that an
    issue on GitHub shows them as they are.
    """
    return format_report(env_report() if report is None else report, paste=paste)


def run_fresh_python(code: str, **env_changes: str | None) -> str:
    """Run ``code`` in a new Python process (this interpreter); return what it printed.

    The child inherits this process's environment, changed by ``env_changes``:
    ``NAME="value"`` sets a variable, ``NAME=None`` removes it. A variable not
    named is passed on as it is, so the child sees the GPUs this process sees.
    Raises ``RuntimeError`` with the child's error output if it fails.
    """
    if not isinstance(code, str):
        raise TypeError(f"code must be a str of Python source, got {type(code).__name__}")
    env = dict(os.environ)
    for name, value in env_changes.items():
        if value is None:
            env.pop(name, None)
        elif isinstance(value, str):
            env[name] = value
        else:
            raise TypeError(f"{name} must be a str or None, got {type(value).__name__}")
    result = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    if result.returncode:
        raise RuntimeError(
            f"the fresh Python failed with exit code {result.returncode}:\n{result.stderr[-2000:]}"
        )
    return result.stdout
