"""A GPU cell's stored output on a CPU: `make outputs` stores what it prints, nbval compares it.

End to end, on a tiny notebook: tools/make_outputs.py runs it on the CPU and stores the
reference block of its GPU cell; nbval (with the root conftest.py, as `make check` runs it)
passes; a new GPU run that changed the reference (the shown one or one collapsed under
"Other GPUs"), or a size changed above the cell, fails it until `make outputs` runs again,
while the caption's note on the torch of the machine that stored it is left out. (On a GPU the same cells run and are recorded, not
compared: tests/test_magics.py drives the conftest hooks for that. So on a GPU machine this
test hides its GPUs from the processes it starts, which then check what a CPU machine does.)
"""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from d2lgpu import references

ROOT = Path(__file__).resolve().parents[1]
PROVENANCE = {
    "device": "NVIDIA H100 80GB HBM3",
    "torch": "2.10.0+cu130",  # older than any torch the course installs: the caption has a note
    "cuda": "13.0",
    "date": "2026-11-23",
    "origin": "a test",
}


def run(*args, env):
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )


def nbval(path, env):
    # the flags of `make check-notebooks`, in one process; -p conftest: the root conftest.py
    return run(
        "-m", "pytest", "-p", "conftest", "-p", "no:randomly", "-p", "no:xdist",
        "-p", "no:cacheprovider", "--nbval", "--nbval-current-env",
        "--nbval-sanitize-with", "tests/sanitize.cfg", "--nbval-cell-timeout=300",
        "--nbval-kernel-startup-timeout=300", "-q", str(path), env=env,
    )  # fmt: skip


@pytest.mark.slow
def test_a_stale_gpu_reference_fails_nbval_on_a_cpu_until_make_outputs(tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
    nb.cells = [
        nbformat.v4.new_code_cell("import torch\n\n%load_ext d2lgpu.magics\nn = 4096  # GPU size"),
        nbformat.v4.new_code_cell(
            "%%requires_gpu\nprint(torch.ones(n, device='cuda').sum().item())",
            metadata={"tags": ["requires-gpu", "nbval-ignore-output"]},
        ),
        nbformat.v4.new_code_cell("print(n)"),
    ]
    path = tmp_path / "tiny.ipynb"
    nbformat.write(nb, path)
    results = tmp_path / "results"
    gpu = nb.cells[1]

    def record(output, provenance=PROVENANCE):  # what `make gpu-check` stores for the cell
        references.record_reference(
            results, "tiny.ipynb", gpu.id, gpu.source, output, provenance,
            earlier=references.earlier_sources(nb.cells, gpu.id),
        )  # fmt: skip

    record("4096.0\n")
    record(
        "4096.0\nfrom the newer run\n", dict(PROVENANCE, device="NVIDIA H200", date="2026-11-28")
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("D2LGPU_RECORD")}
    env[references.RESULTS_ENV_VAR] = str(results)
    # a CPU machine, wherever this runs: the root conftest.py (torch.cuda.device_count) and the
    # kernel's %%requires_gpu then see no GPU, so nbval compares the GPU cell's stored output
    env["CUDA_VISIBLE_DEVICES"] = ""
    made = run("tools/make_outputs.py", str(path), env=env)
    assert made.returncode == 0, made.stdout + made.stderr
    stored = nbformat.read(path, as_version=4).cells[1]
    assert stored.execution_count is not None
    assert [o.output_type for o in stored.outputs] == ["stream", "display_data"]
    assert stored.outputs[0].text == "Skipped: this cell needs a CUDA GPU; 0 are visible here.\n"
    text, shown = stored.outputs[1].data["text/plain"], stored.outputs[1].data["text/html"]
    # the newest run shown, the other GPU's collapsed below it
    assert text.startswith("Recorded on NVIDIA H200 with torch 2.10.0+cu130, 2026-11-28 (this ")
    assert "\n    from the newer run\nOther GPUs: NVIDIA H100 80GB HBM3\n" in text
    note = re.search(r"\(this machine has torch [^)]*\)", text).group()
    assert "not this machine" not in text and text.endswith(
        f"Recorded on NVIDIA H100 80GB HBM3 with torch 2.10.0+cu130, 2026-11-23 {note}\n    4096.0"
    )
    assert "<pre" in shown and shown.index("H200") < shown.index("<details") < shown.index("H100")
    # outputs stored with another torch: the caption's note differs, and nbval leaves it out
    notes = re.compile(r"\(this machine has torch [^)]*\)")
    assert len(notes.findall(path.read_text())) == 4  # two blocks, in text and in HTML
    path.write_text(notes.sub("(this machine has torch 2.99.0)", path.read_text()))
    checked = nbval(path, env)
    assert checked.returncode == 0 and "3 passed" in checked.stdout, checked.stdout[-3000:]

    record("4096.0\nand a line the new run printed\n")  # a new run of the collapsed GPU: stale
    checked = nbval(path, env)
    assert checked.returncode == 1 and "1 failed, 2 passed" in checked.stdout, checked.stdout
    assert "Cell 1: Cell outputs differ" in checked.stdout

    made = run("tools/make_outputs.py", str(path), env=env)
    assert made.returncode == 0 and nbval(path, env).returncode == 0

    # a size changed above the cell: its reference no longer applies, the stored one is stale
    text = json.loads(path.read_text())
    text["cells"][0]["source"] = [s.replace("4096", "8192") for s in text["cells"][0]["source"]]
    path.write_text(json.dumps(text))
    checked = nbval(path, env)
    assert "Cell 1: Cell outputs differ" in checked.stdout, checked.stdout[-3000:]
    assert "Cell 2: Cell outputs differ" in checked.stdout  # print(n), as any cell would
    made = run("tools/make_outputs.py", str(path), env=env)
    stored = nbformat.read(path, as_version=4).cells[1]
    assert made.returncode == 0 and stored.outputs[-1].text.endswith(
        references.OTHER_CELLS_ABOVE + "\n"
    )
