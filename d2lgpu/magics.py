"""The ``%%requires_gpu`` cell magic: GPU-only cells that skip cleanly without a GPU.

Load it once per notebook, next to the imports::

    %load_ext d2lgpu.magics

then start a cell that needs one GPU with ``%%requires_gpu`` (or two GPUs with
``%%requires_gpu 2``). With the hardware present the cell runs as usual, and
its errors are errors. Without it, the cell prints one line saying it was
skipped and why, instead of raising: so *Run All* in JupyterLab goes on to the
next cell on a laptop, where an exception would stop it. Below that line it
shows what the same cell printed on a real GPU, with the device, versions and
date of that run, or says that no such reference exists yet for this version
of the cell (:mod:`d2lgpu.references`).

This is for the learner's own runs. The test suite does not rely on it: such
cells also carry the tag ``requires-gpu`` / ``requires-2-gpus``, which the
nbval configuration skips, with the reason stated, on machines without the
hardware.
"""

from __future__ import annotations

from .devices import mps_available, num_gpus

__all__ = ["GPU_TAGS", "gpus_needed", "skip_message", "requires_gpu", "load_ipython_extension"]

# The notebook cell tags that mark GPU-only cells, and how many GPUs each asks for.
GPU_TAGS = {"requires-gpu": 1, "requires-2-gpus": 2}


def gpus_needed(tags) -> int:
    """The number of GPUs a cell with these tags needs (0: none)."""
    return max((GPU_TAGS[t] for t in tags if t in GPU_TAGS), default=0)


def skip_message(needed: int, visible: int) -> str:
    """Why a cell that needs ``needed`` CUDA GPUs does not run here, in one line."""
    what = "a CUDA GPU" if needed == 1 else f"{needed} CUDA GPUs"
    # Apple silicon has a GPU, but not a CUDA one: say so, or the learner wonders why.
    mps = " This Mac's GPU (mps) is not CUDA." if mps_available() else ""
    return (
        f"Skipped: this cell needs {what} and {visible} visible.{mps} "
        "The text above says what it shows."
    )


def requires_gpu(line: str, cell: str, *, namespace: dict | None = None) -> None:
    """Run ``cell`` if at least ``int(line or 1)`` CUDA GPUs are visible; else say it skipped."""
    text = line.strip() or "1"
    if not text.isdigit() or int(text) < 1:
        raise ValueError(
            f"%%requires_gpu takes the number of GPUs the cell needs (1, 2, ...), got {line!r}"
        )
    needed, visible = int(text), num_gpus()
    if visible < needed:
        print(skip_message(needed, visible))
        print(_reference_text(cell))
        return
    if namespace is None:
        from IPython import get_ipython

        namespace = get_ipython().user_ns
    # exec, not shell.run_cell: an error in the cell must be this cell's error.
    exec(compile(cell, "<requires_gpu cell>", "exec"), namespace)


def _reference_text(cell: str) -> str:
    from . import references

    try:
        return references.format_reference(references.find_reference(cell))
    except (
        OSError,
        ValueError,
        KeyError,
    ) as error:  # a damaged results folder must not stop Run All
        return f"No GPU reference output could be read ({type(error).__name__}: {error})."


def load_ipython_extension(ipython) -> None:
    """Register ``%%requires_gpu`` (called by ``%load_ext d2lgpu.magics``)."""
    ipython.register_magic_function(
        lambda line, cell: requires_gpu(line, cell, namespace=ipython.user_ns),
        magic_kind="cell",
        magic_name="requires_gpu",
    )
