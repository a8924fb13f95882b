"""The ``%%requires_gpu`` cell magic: GPU-only cells that skip cleanly without a GPU.

Load it once per notebook, next to the imports::

    %load_ext d2lgpu.magics

then start a cell that needs one GPU with ``%%requires_gpu`` (or two GPUs with
``%%requires_gpu 2``). With the hardware present the cell runs as usual, and
its errors are errors. Without it, the cell prints one line saying it was
skipped and why, instead of raising: so *Run All* in JupyterLab goes on to the
next cell on a laptop, where an exception would stop it. Below that line it
displays what the same cell printed on a real GPU, in a bordered block headed
"Recorded on <GPU> with torch <version>, <date>" (the newest recording; other
GPUs' blocks collapsed below it); or it says that no such reference exists yet
for this version of the cell, and that the text above the cell says what it
shows (:mod:`d2lgpu.references`). In an exercise, where the learner's answer is
code no GPU has run, it shows the worked solution's reference instead, under a
line that says so.

A reference belongs to the cell's code and to the code above it that the cell
reads (a size set in an earlier cell, say). The extension keeps the sources of
the cells this kernel ran, in the order it ran them, so that a cell run after
other code than the GPU ran before it shows no reference, rather than a stale one.

Such cells also carry the tag ``requires-gpu`` / ``requires-2-gpus``. On a
machine without any CUDA GPU, ``make outputs`` stores what they print there
and nbval compares it, so a stored reference block that is no longer what the
cell shows fails the suite; on a GPU they run and are recorded, not compared
(the root ``conftest.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

from .devices import mps_available, num_gpus

__all__ = [
    "GPU_TAGS",
    "cells_run_so_far",
    "gpus_needed",
    "load_ipython_extension",
    "requires_gpu",
    "skip_message",
]

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


def requires_gpu(
    line: str,
    cell: str,
    *,
    namespace: dict | None = None,
    earlier: Sequence[str] = (),
    cell_id: str | None = None,
) -> None:
    """Run ``cell`` if at least ``int(line or 1)`` CUDA GPUs are visible; else say it skipped.

    ``earlier``: the sources of the cells run before this one, oldest first, which pick the
    reference shown when it skips (:func:`d2lgpu.references.cell_key`). ``cell_id``: the
    notebook's id of this cell, where the front end sends it (JupyterLab does): a worked
    solution's reference is shown only for the cell of the same id.
    """
    text = line.strip() or "1"
    if not text.isdigit() or int(text) < 1:
        raise ValueError(
            f"%%requires_gpu takes the number of GPUs the cell needs (1, 2, ...), got {line!r}"
        )
    needed, visible = int(text), num_gpus()
    if visible < needed:
        _show_skip(needed, visible, cell, earlier, cell_id)
        return
    if namespace is None:
        from IPython import get_ipython

        namespace = get_ipython().user_ns
    # exec, not shell.run_cell: an error in the cell must be this cell's error.
    exec(compile(cell, "<requires_gpu cell>", "exec"), namespace)


def _show_skip(
    needed: int, visible: int, cell: str, earlier: Sequence[str], cell_id: str | None = None
) -> None:
    """The skip line on stdout; below it the GPU references as a display, or why there are none.

    Where this code, after the code above it, has no reference, the worked solution's is
    shown, labelled as such (an exercise whose answer differs from the solution's text).
    """
    import torch

    from . import references

    bundle, why_none = None, references.NO_REFERENCE
    try:
        entries, solution = references.find_reference(cell, earlier=earlier), False
        if not entries:
            entries = references.solution_reference(cell, cell_id=cell_id)
            solution = bool(entries)
        if entries:
            bundle = references.reference_bundle(entries, torch.__version__, solution=solution)
        elif references.body_has_reference(cell):
            why_none = references.OTHER_CELLS_ABOVE
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


def cells_run_so_far(ipython) -> list[str]:
    """The sources of the cells ``ipython`` ran so far, oldest first, the running one last.

    From its history where cells are stored there (JupyterLab, nbclient); nbval runs them
    without history, and then the running cell is all there is to find.
    """
    history = getattr(ipython, "history_manager", None)
    sources = list(history.input_hist_raw[1:]) if history is not None else []
    result = getattr(getattr(ipython, "displayhook", None), "exec_result", None)
    running = getattr(getattr(result, "info", None), "raw_cell", None)
    if running is not None and (not sources or sources[-1] != running):
        sources.append(running)
    return sources


def _before(log: list[str], cell: str) -> list[str]:
    """``log`` without its last entry when that is this ``%%requires_gpu`` cell (it always is
    when the cell was run as a cell; not when the magic was called some other way)."""
    from .references import cell_body

    if log and log[-1].lstrip().startswith("%%requires_gpu"):
        if cell_body(log[-1]).strip() == cell.strip():
            return log[:-1]
    return list(log)


def load_ipython_extension(ipython) -> None:
    """Register ``%%requires_gpu`` (called by ``%load_ext d2lgpu.magics``).

    From now on the source of every cell the kernel runs is kept, after those it ran before,
    and the id of the one running, where the front end sends it (JupyterLab; not nbclient).
    """
    log = cells_run_so_far(ipython)
    running: dict[str, str | None] = {"id": None}

    def before_each(info) -> None:
        log.append(info.raw_cell)
        running["id"] = getattr(info, "cell_id", None)

    ipython.events.register("pre_run_cell", before_each)
    ipython.register_magic_function(
        lambda line, cell: requires_gpu(
            line,
            cell,
            namespace=ipython.user_ns,
            earlier=_before(log, cell),
            cell_id=running["id"],
        ),
        magic_kind="cell",
        magic_name="requires_gpu",
    )
