import json
from pathlib import Path

import nbformat
import pytest

from d2lgpu import magics, references

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted(
    p for d in ("notebooks", "solutions", "exercises") for p in (ROOT / d).glob("*.ipynb")
)
PROVENANCE = {
    "device": "NVIDIA H100 80GB HBM3",
    "torch": "2.11.0+cu130",
    "cuda": "13.0",
    "date": "2026-11-23",
    "origin": "a test",
}


def gpu_cells(path):
    nb = nbformat.read(path, as_version=4)
    return [
        c
        for c in nb.cells
        if c.cell_type == "code" and magics.gpus_needed(c.metadata.get("tags", []))
    ]


def skipped_output(capsys, monkeypatch, source, results_dir=None):
    monkeypatch.setattr(magics, "num_gpus", lambda: 0)
    if results_dir is not None:
        monkeypatch.setattr(references, "RESULTS_DIR", Path(results_dir))
    line, _, body = source.partition("\n")
    magics.requires_gpu(line.removeprefix("%%requires_gpu"), body, namespace={})
    return capsys.readouterr().out


def test_a_recorded_cell_shows_its_output_with_provenance(tmp_path, capsys, monkeypatch):
    source = "%%requires_gpu\nprint('fast')\n"
    references.record_reference(tmp_path, "notebooks/x.ipynb", "id1", source, "fast\n", PROVENANCE)
    out = skipped_output(capsys, monkeypatch, source, tmp_path)
    assert out.startswith("Skipped: this cell needs a CUDA GPU and 0 visible.")
    assert (
        "On an NVIDIA H100 80GB HBM3, torch 2.11.0+cu130 (CUDA 13.0), 2026-11-23, "
        "this cell printed:\n    fast\n"
    ) in out


def test_a_changed_cell_says_no_reference_exists_and_shows_no_stale_one(
    tmp_path, capsys, monkeypatch
):
    old = "%%requires_gpu\nprint('slow')\n"
    references.record_reference(tmp_path, "notebooks/x.ipynb", "id1", old, "slow\n", PROVENANCE)
    out = skipped_output(capsys, monkeypatch, "%%requires_gpu\nprint('slower')\n", tmp_path)
    assert "No GPU reference output exists for this cell yet" in out
    assert "slow\n" not in out.replace("Skipped", "")
    # trailing blanks are not a change of code
    out = skipped_output(capsys, monkeypatch, "%%requires_gpu\nprint('slow')   \n\n", tmp_path)
    assert "this cell printed:\n    slow" in out


def test_references_are_stored_per_device_and_notebook(tmp_path):
    path = references.record_reference(
        tmp_path, "solutions/02_tensors.ipynb", "c1", "%%requires_gpu\nx = 1\n", "", PROVENANCE
    )
    assert path == tmp_path / "NVIDIA-H100-80GB-HBM3" / "cells" / "solutions_02_tensors.json"
    references.record_reference(
        tmp_path, "solutions/02_tensors.ipynb", "c2", "y = 2\n", "2\n", PROVENANCE, seconds=1.5
    )
    data = json.loads(path.read_text())
    assert set(data["cells"]) == {"c1", "c2"} and data["cells"]["c2"]["seconds"] == 1.5
    assert data["notebook"] == "solutions/02_tensors.ipynb"
    [entry] = references.find_reference("y = 2\n", tmp_path)
    assert entry["cell_id"] == "c2" and entry["output"] == "2\n"


@pytest.mark.parametrize("key", references.PROVENANCE_KEYS)
def test_a_reference_without_its_provenance_is_refused(tmp_path, key):
    with pytest.raises(ValueError, match=key):
        references.record_reference(
            tmp_path, "notebooks/x.ipynb", "c", "x", "", dict(PROVENANCE, **{key: ""})
        )


def test_device_slug_and_its_errors():
    assert references.device_slug(" NVIDIA H100 80GB HBM3 ") == "NVIDIA-H100-80GB-HBM3"
    assert references.device_slug("NVIDIA A100-SXM4-40GB") == "NVIDIA-A100-SXM4-40GB"
    for bad in ("", "  ", None):
        with pytest.raises(ValueError, match="name must be a non-empty device name"):
            references.device_slug(bad)


def test_outputs_to_text_keeps_what_a_reader_saw():
    outputs = [
        {"output_type": "stream", "name": "stdout", "text": "a\n"},
        {"output_type": "execute_result", "data": {"text/plain": "42"}},
        {"output_type": "display_data", "data": {"image/png": "...", "text/plain": "<Figure>"}},
        {"output_type": "error", "ename": "RuntimeError", "evalue": "boom", "traceback": []},
    ]
    assert references.outputs_to_text(outputs) == "a\n42\n[a figure]\nRuntimeError: boom\n"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_gpu_cell_shows_a_current_reference_or_says_there_is_none(path, capsys, monkeypatch):
    for cell in gpu_cells(path):
        assert cell.source.startswith("%%requires_gpu"), cell.id
        out = skipped_output(capsys, monkeypatch, cell.source)
        entries = references.find_reference(references.cell_body(cell.source))
        if entries:
            assert "this cell printed:" in out and "No GPU reference" not in out, cell.id
            for entry in entries:
                assert all(entry.get(k) for k in references.PROVENANCE_KEYS), (cell.id, entry)
        else:
            assert "No GPU reference output exists for this cell yet" in out, cell.id


def test_every_stored_reference_belongs_to_a_gpu_cell_and_says_where_it_came_from():
    files = sorted(references.RESULTS_DIR.glob("*/cells/*.json"))
    for path in files:
        data = json.loads(path.read_text())
        nb_path = ROOT / data["notebook"]
        assert nb_path.exists(), f"{path}: no notebook {data['notebook']}"
        ids = {c.id for c in gpu_cells(nb_path)}
        for cell_id, entry in data["cells"].items():
            assert cell_id in ids, f"{path}: {cell_id} is not a GPU cell of {data['notebook']}"
            assert all(entry.get(k) for k in references.PROVENANCE_KEYS), (path, cell_id)
            assert len(entry["sha256"]) == 64 and isinstance(entry["output"], str)
