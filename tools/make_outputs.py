"""Re-run notebooks on the CPU and store their outputs, reproducibly.

    .venv/bin/python tools/make_outputs.py notebooks solutions [more dirs or .ipynb files]

Stored outputs are what nbval compares against, on this machine and on a
CUDA machine alike, so they always come from a CPU run: the GPUs are hidden
(``CUDA_VISIBLE_DEVICES=""``). Cells tagged ``requires-gpu`` or
``requires-2-gpus`` run too: ``%%requires_gpu`` skips their code and prints
what a reader without a GPU sees, the GPU reference block with where it was
recorded (``docs/results/<device>/cells/``; the newest recording shown, other
GPUs' blocks collapsed below it) or the no-reference line. So no
GPU cell is blank on GitHub, and nbval on a CPU compares that output, which a
new GPU run or a change of the cell (or of the code above it that it reads)
makes stale until this runs again. On a GPU nbval runs those cells without
comparing them (the root ``conftest.py``).

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
from kernel_start import NotebookClient  # nbclient's, started again if it died at once

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
            if cell.cell_type == "code":
                client.execute_cell(cell, index)  # GPU cells too: they skip and say what ran
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
