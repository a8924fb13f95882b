"""The ``%%requires_gpu`` cell magic: GPU-only cells that skip cleanly without a GPU.

Load it once per notebook, next to the imports::

    %load_ext d2lgpu.magics

then start a cell that needs one GPU with ``%%requires_gpu`` (or two GPUs with
``%%requires_gpu 2``). With the hardware present the cell runs as usual, and
its errors are errors. Without it, the cell prints one line saying it was
skipped and why, instead of raising: so *Run All* in JupyterLab goes on to the
next cell on a laptop, where an exception would stop it. Below that line it
displays what the same cell printed on a real GPU, in a bordered block headed
with the device, versions and date of that run and "not this machine"; or it
says that no such reference exists yet for this version of the cell, and that
the text above the cell says what it shows (:mod:`d2lgpu.references`).

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


def skip_message(needed: int, visible: int, *, reference: bool = True) -> str:
    """Why a cell that needs ``needed`` CUDA GPUs does not run here, in one line.

    Without a ``reference`` to show below it, the line points to the prose instead.
    """
    what = "a CUDA GPU" if needed == 1 else f"{needed} CUDA GPUs"
    are = "is" if visible == 1 else "are"
    # Apple silicon has a GPU, but not a CUDA one: say so, or the learner wonders why.
    mps = " This Mac's GPU (mps) is not CUDA." if mps_available() else ""
    prose = "" if reference else " The text above says what it shows."
    return f"Skipped: this cell needs {what}; {visible} {are} visible here.{mps}{prose}"


def requires_gpu(line: str, cell: str, *, namespace: dict | None = None) -> None:
    """Run ``cell`` if at least ``int(line or 1)`` CUDA GPUs are visible; else say it skipped."""
    text = line.strip() or "1"
    if not text.isdigit() or int(text) < 1:
        raise ValueError(
            f"%%requires_gpu takes the number of GPUs the cell needs (1, 2, ...), got {line!r}"
        )
    needed, visible = int(text), num_gpus()
    if visible < needed:
        _show_skip(needed, visible, cell)
        return
    if namespace is None:
        from IPython import get_ipython

        namespace = get_ipython().user_ns
    # exec, not shell.run_cell: an error in the cell must be this cell's error.
    exec(compile(cell, "<requires_gpu cell>", "exec"), namespace)


def _show_skip(needed: int, visible: int, cell: str) -> None:
    """The skip line on stdout; below it the GPU references as a display, or why there are none."""
    import torch

    from . import references

    bundle, why_none = None, references.NO_REFERENCE
    try:
        entries = references.find_reference(cell)
        if entries:
            bundle = references.reference_bundle(entries, installed_torch=torch.__version__)
    except (OSError, ValueError, KeyError) as error:  # damaged results must not stop Run All
        why_none = f"No GPU reference output could be read ({type(error).__name__}: {error})."
    print(skip_message(needed, visible, reference=bundle is not None))
    if bundle is None:
        print(why_none)
        return
    from IPython import get_ipython

    if get_ipython() is None:  # a plain Python process: no display to publish to
        print(bundle["text/plain"])
        return
    from IPython.display import display

    # stdout is flushed before a display is published, so the skip line stays above it.
    display(bundle, raw=True)


def load_ipython_extension(ipython) -> None:
    """Register ``%%requires_gpu`` (called by ``%load_ext d2lgpu.magics``)."""
    ipython.register_magic_function(
        lambda line, cell: requires_gpu(line, cell, namespace=ipython.user_ns),
        magic_kind="cell",
        magic_name="requires_gpu",
    )
