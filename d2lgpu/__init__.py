"""d2lgpu: the helper package of a Jupyter course on GPU acceleration in PyTorch.

The notebooks import it to remove boilerplate (choosing devices, timing,
memory reports, data, models, plots, launching torchrun, grading exercises),
never the lesson itself: the PyTorch that a chapter teaches stays in the
chapter.

Importing ``d2lgpu`` is cheap and silent: it makes no CUDA call, seeds
nothing, sets no global flag, and imports neither matplotlib nor torchvision.
Submodules (``d2lgpu.data``, ``d2lgpu.plotting``, ...) load on first use.

Modules, one concern each:

========================  ==========================================================
``devices``               ``cpu``, ``gpu``, ``try_gpu``, ``try_all_gpus``, env report
``timing``                ``sync``, a synchronizing ``Timer``, ``benchmark``, ``compare``
``fastest``               ``fastest_of``, ``claim``: a lesson's claim on a shared machine
``memory``                allocator counters and ``peak_memory``
``data``                  FashionMNIST, with a synthetic fallback that says so
``datasets``              the synthetic stand-in; loading that costs a read and a decode
``models``                the chapters' models; chapter 4's sizes and their FLOPs and bytes
``training``              ``train`` and ``evaluate_accuracy``
``distributed``           the nccl/gloo rule, each rank's device, the course's scripts
``launcher``              ``launch``: torchrun from a notebook, no process left behind
``collectives``           all-reduce bandwidths, GPU link peaks, DDP's overlap in a trace
``processes``             find and stop a job's processes by a mark in their environment
``training_checkpoints``  a training run's checksummed checkpoints and its random state
``faults``                a rank that dies on request, for the fault-tolerance tests
``pipeline``              micro-batches, a timeline of busy pipeline stages, the bubble
``ranks``                 gloo ranks started from a notebook; a count of their all-reduces
``llama``                 a Llama-style decoder, 125M to 70B, built without memory
``scale``                 one rank's memory at any world size, planned in one CPU process
``plan``                  a parallel plan's memory per rank and step time; the best that fits
``ddp_timeline``          a hand-built DDP step timed on gloo ranks: backward, all-reduces
``plotting``              timing-vs-size, bar, timeline and training-curve plots
``grading``               ``check(exercise_id, answer)`` for the exercises
``hardware``              datasheet peaks of common GPUs, a labelled table
``links``                 the course's repository URL; its Open in Colab and Kaggle links
``bench``                 ``python -m d2lgpu bench``: the course's reference measurements
``bench_measures``        the bench's measurements, one function each
``bench_report``          the bench's plots and summary, drawn from its results
``references``            what GPU-only cells printed on a real GPU, shown where they skip
                          (stored here; keyed in ``_cell_keys``, drawn in
                          ``_reference_blocks``)
``magics``                ``%%requires_gpu``: a GPU-only cell skips with its reference elsewhere
``streams``               overlap's arithmetic, text timelines, the streams of a profiler trace
``stream_sim``            CUDA stream code run on a simulated GPU: order, waits, races
``versions``              what differs between the torch versions the course supports
========================  ==========================================================
"""

import importlib
import sys

try:
    import torch  # noqa: F401  (every module below needs it)
except ModuleNotFoundError as _missing:
    if _missing.name != "torch":
        raise
    # A Python without torch: most often the system's, not the course's .venv. Say how to
    # run it there, in one line, rather than "No module named 'torch'".
    _argv = getattr(sys, "orig_argv", [])
    if any(a == "-m" and b == "d2lgpu" for a, b in zip(_argv, _argv[1:], strict=False)):
        print(
            f"python -m d2lgpu: this Python ({sys.executable}) has no torch; run `make env` "
            "in the course's folder, or .venv/bin/python -m d2lgpu env (the course's .venv)",
            file=sys.stderr,
        )
        raise SystemExit(2) from None
    raise ModuleNotFoundError(
        f"d2lgpu needs torch, which this Python ({sys.executable}) does not have: in the lab, "
        "pick the kernel 'Python 3 (d2lgpu)'; on the command line, use the course's "
        ".venv/bin/python (make setup creates it)",
        name="torch",
    ) from None

from .devices import cpu, default_device, env_report, gpu, num_gpus, try_all_gpus, try_gpu
from .fastest import claim, fastest_of
from .memory import memory_report, peak_memory
from .timing import Timer, benchmark, compare, sync

__version__ = "0.1.0"

_SUBMODULES = (
    "bench",
    "bench_measures",
    "bench_report",
    "collectives",
    "data",
    "datasets",
    "ddp_timeline",
    "devices",
    "distributed",
    "fastest",
    "faults",
    "grading",
    "hardware",
    "launcher",
    "links",
    "memory",
    "models",
    "pipeline",
    "plan",
    "plotting",
    "references",
    "processes",
    "llama",
    "ranks",
    "scale",
    "stream_sim",
    "streams",
    "timing",
    "training",
    "training_checkpoints",
    "versions",
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
    "fastest_of",
    "claim",
    "memory_report",
    "peak_memory",
    *_SUBMODULES,
]


def __getattr__(name):
    # Load submodules on first use (PEP 562), so `import d2lgpu` stays cheap.
    if name in _SUBMODULES:
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'd2lgpu' has no attribute {name!r}")
