"""Pytest configuration shared by the unit tests and nbval.

Notebook cells tagged ``requires-gpu`` or ``requires-2-gpus`` (GPU cells) are checked
by what this machine has:

- no CUDA GPU: they run, ``%%requires_gpu`` skips their code and prints the GPU
  reference block or the no-reference line, and nbval compares that with the stored
  output (``make outputs`` stores what a CPU prints), their ``nbval-ignore-output``
  tag notwithstanding: a reference that changed, or that no longer matches the cell's
  code or the code above it, fails the suite until ``make outputs`` runs again;
- enough GPUs: they run for real, and what they print is recorded, not compared;
- some GPUs, fewer than the cell needs: skipped, with the reason stated. Such cells
  are leaves (nothing later depends on them), so the rest of the notebook still runs.

A kernel that died before it answered (most likely: another process took one of its ports)
is started again, at most three times in all (``tools/kernel_start.py``).

Under nbval the kernels get a temporary folder (``TMPDIR``) of the run's own, removed when
the run ends: nbval kills each kernel, so what a cell puts in the temporary folder cannot
remove itself.

With ``D2LGPU_RECORD_DIR`` set (``make gpu-check`` sets it), what each GPU
cell printed is stored there as its GPU reference (:mod:`d2lgpu.references`, keyed by
the cell's code and the code above it in the notebook that it reads),
and every notebook cell's wall time, outcome, output and key go to ``<device>/cell-runs.jsonl``
there: what each cell printed on the GPU, for checking the lessons' prose, and which code
passed (``make gpu-check`` runs first the cells whose current code never has).
"""

import datetime
import getpass
import json
import os
import tempfile
from pathlib import Path

import pytest

from d2lgpu.magics import gpus_needed

RECORD_ENV_VAR = "D2LGPU_RECORD_DIR"
_SCRATCH = pytest.StashKey[tuple]()


def _visible_gpus() -> int:
    import torch

    return torch.cuda.device_count() if torch.cuda.is_available() else 0


def pytest_configure(config):
    # A notebook's cells depend on the ones before them: never let pytest-randomly
    # shuffle them, whoever runs nbval and however (make check also passes -p no:randomly).
    nbval = config.getoption("nbval", default=False) or config.getoption("nbval_lax", default=False)
    if nbval and hasattr(config.option, "randomly_reorganize"):
        config.option.randomly_reorganize = False
    if nbval:
        # nbval stops each notebook's kernel with SIGKILL, so a tempfile.TemporaryDirectory
        # in a cell never removes itself, as it does when JupyterLab stops the kernel: the
        # kernels (and what they start) get a temporary folder of this run's own instead.
        # torch.compile's cache stays where it was (beside the folder, not in it): what it
        # compiled in an earlier run is not compiled again at every run.
        env = pytest.MonkeyPatch()  # undone, with the folder, when pytest ends
        if "TORCHINDUCTOR_CACHE_DIR" not in os.environ:
            default_cache = Path(tempfile.gettempdir()) / f"torchinductor_{getpass.getuser()}"
            env.setenv("TORCHINDUCTOR_CACHE_DIR", str(default_cache))
        scratch = tempfile.TemporaryDirectory(prefix="d2lgpu-nbval-", ignore_cleanup_errors=True)
        env.setenv("TMPDIR", scratch.name)
        # A kernel whose port another process took meanwhile dies before it answers: nbval
        # starts it again, on new ports (tools/kernel_start.py says when, and how often).
        import nbval.kernel

        from tools.kernel_start import retrying

        env.setattr(nbval.kernel, "start_new_kernel", retrying(nbval.kernel.start_new_kernel))
        config.stash[_SCRATCH] = (scratch, env)


def pytest_unconfigure(config):
    if _SCRATCH in config.stash:
        scratch, env = config.stash[_SCRATCH]
        env.undo()
        scratch.cleanup()


def pytest_collection_modifyitems(config, items):
    gpus = None
    for item in items:
        cell = getattr(item, "cell", None)  # nbval's notebook-cell items have one
        if cell is None:
            continue
        needed = gpus_needed(cell.get("metadata", {}).get("tags", []))
        if not needed:
            continue
        if gpus is None:
            gpus = _visible_gpus()
        options = getattr(item, "options", None)  # nbval's: whether to compare the outputs
        if gpus == 0:
            # What a CPU prints for it is stored: compare it as nbval would an untagged cell.
            if options is not None:
                options["check"] = item.parent.compare_outputs
        elif gpus < needed:
            reason = "requires CUDA" if needed == 1 else f"requires {needed} GPUs"
            item.add_marker(pytest.mark.skip(reason=f"{reason} ({gpus} visible)"))
        elif options is not None:
            options["check"] = False  # a GPU's own output: recorded, never compared


def _provenance() -> dict:
    import torch

    return {
        "device": torch.cuda.get_device_name(),
        "torch": torch.__version__,
        "cuda": torch.version.cuda or "none",
        "date": datetime.date.today().isoformat(),
        "origin": os.environ.get("D2LGPU_RECORD_ORIGIN", "make gpu-check"),
    }


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    record_dir = os.environ.get(RECORD_ENV_VAR)
    cell = getattr(item, "cell", None)
    if not record_dir or cell is None or call.when != "call":
        return
    from d2lgpu import references

    report = outcome.get_result()
    provenance = _provenance()
    notebook = Path(str(item.fspath)).resolve().relative_to(Path(__file__).resolve().parent)
    gpu_cell = bool(gpus_needed(cell.get("metadata", {}).get("tags", [])))
    outputs = getattr(item, "test_outputs", None)
    earlier = references.earlier_sources(_notebook_cells(item), cell["id"])
    line = {
        "notebook": notebook.as_posix(),
        "cell_id": cell.get("id"),
        "key": references.cell_key(cell["source"], earlier),  # which code ran: tools/gpu_units.py
        "gpu": gpu_cell,
        "seconds": round(call.duration, 2),
        "outcome": report.outcome,
        "output": references.outputs_to_text(outputs or []),
    }
    runs = Path(record_dir) / references.device_slug(provenance["device"]) / "cell-runs.jsonl"
    runs.parent.mkdir(parents=True, exist_ok=True)
    with open(runs, "a") as f:
        f.write(json.dumps(line) + "\n")
    if gpu_cell and report.passed and outputs is not None:
        references.record_reference(
            record_dir,
            notebook.as_posix(),
            cell["id"],
            cell["source"],
            references.outputs_to_text(outputs),
            provenance,
            earlier=earlier,
            seconds=round(call.duration, 2),
        )


def _notebook_cells(item) -> list:
    """The cells of the notebook that nbval's ``item`` belongs to."""
    nb = getattr(item.parent, "nb", None)  # nbval keeps the notebook it collected
    if nb is None:
        import nbformat

        nb = nbformat.read(str(item.fspath), as_version=4)
    return nb.cells
