"""d2lgpu: the helper package of a Jupyter course on GPU acceleration in PyTorch.

The notebooks import it to remove boilerplate (choosing devices, timing,
memory reports, data, models, plots, launching torchrun, grading exercises),
never the lesson itself: the PyTorch that a chapter teaches stays in the
chapter.

Importing ``d2lgpu`` is cheap and silent: it makes no CUDA call, seeds
nothing, sets no global flag, and imports neither matplotlib nor torchvision.
Submodules (``d2lgpu.data``, ``d2lgpu.plotting``, ...) load on first use.

Modules, one concern each:

===================  ==================================================="""

import importlib

from .devices import cpu, default_device, env_report, gpu, num_gpus, try_all_gpus, try_gpu
from .memory import memory_report, peak_memory
from .timing import Timer, benchmark, compare, sync

__version__ = "0.1.0"

_SUBMODULES = (
    "bench",
    "bench_measures",
    "bench_report",
    "checkpoint",
    "data",
    "datasets",
    "devices",
    "distributed",
    "faults",
    "grading",
    "hardware",
    "launcher",
    "memory",
    "models",
    "plotting",
    "references",
    "processes",
    "stream_sim",
    "streams",
    "timing",
    "training",
)

__all__ = [
    "cpu",
    "gpu",
    "num_gpus",
    "try_gpu",
    "try_all_gpus",
    "default_device",
    "env_report",
    "sync",
    "Timer",
    "benchmark",
    "compare",
    "memory_report",
    "peak_memory",
    *_SUBMODULES,
]


def __getattr__(name):
    # Load submodules on first use (PEP 562), so `import d2lgpu` stays cheap.
    if name in _SUBMODULES:
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'd2lgpu' has no attribute {name!r}")
