"""Re-run notebooks on the CPU and store their outputs, reproducibly.

    .venv/bin/python tools/make_outputs.py notebooks solutions [more dirs or .ipynb files]

Stored outputs are what nbval compares against, on this machine and on a
CUDA machine alike, so they always come from a CPU run: the GPUs are hidden
(``CUDA_VISIBLE_DEVICES=""``) and cells tagged ``requires-gpu`` or
``requires-2-gpus`` are left unexecuted (no outputs, no execution count),
which makes nbval run them without comparing where the hardware exists.

Each notebook runs top to bottom in a fresh kernel from its own folder; the
kernelspec is set to ``d2lgpu`` and per-cell execution timestamps are dropped
so that a re-run only changes what really changed.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient

from d2lgpu.magics import gpus_needed

KERNELSPEC = {"name": "d2lgpu", "display_name": "Python 3 (d2lgpu)", "language": "python"}


def execute(path: Path, timeout: int = 600) -> float:
    nb = nbformat.read(path, as_version=4)
    nb.metadata["kernelspec"] = dict(KERNELSPEC)
    # The kernel inherits this process's environment: hide GPUs, quiet the progress bars' width.
    os.environ["CUDA_VISIBLE_DEVICES"] = ""
    os.environ.setdefault("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    # "python3" is ipykernel's built-in spec: this interpreter, whatever env it is.
    client = NotebookClient(
        nb, timeout=timeout, kernel_name="python3", resources={"metadata": {"path": path.parent}}
    )
    start = time.perf_counter()
    with client.setup_kernel():
        for index, cell in enumerate(nb.cells):
            if cell.cell_type != "code":
                continue
            if gpus_needed(cell.metadata.get("tags", [])):
                cell.outputs, cell.execution_count = [], None
                continue
            client.execute_cell(cell, index)
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
    nb.metadata.pop("widgets", None)  # widget state is per-session noise
    nbformat.write(nb, path)
    return time.perf_counter() - start


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__)
        return 2
    paths = []
    for arg in argv:
        p = Path(arg)
        if not p.exists():
            print(f"no such file or folder: {arg}")
            return 2
        paths += sorted(p.glob("*.ipynb")) if p.is_dir() else [p]
    for path in paths:
        seconds = execute(path)
        print(f"{path}: executed on the CPU in {seconds:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
