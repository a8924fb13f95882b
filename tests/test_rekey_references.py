"""tools/rekey_references.py: an old reference moves to the new key only where git shows it
ran with today's code above it; every other one is removed, saying why."""

import importlib.util
import json
import subprocess
from pathlib import Path

import nbformat
import pytest

from d2lgpu import references

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("rekey", ROOT / "tools" / "rekey_references.py")
rekey = importlib.util.module_from_spec(spec)
spec.loader.exec_module(rekey)

TAGS = ["requires-gpu", "nbval-ignore-output"]
SIZE = "on_gpu = True\nn = 4096 if on_gpu else 256\n"
GPU_CELLS = {  # id: source
    "same": "%%requires_gpu\nprint(n)\n",
    "body": "%%requires_gpu\nprint(n + 1)\n",
    "nocommit": "%%requires_gpu\nprint(2 * n)\n",
    "wrongsha": "%%requires_gpu\nprint(3 * n)\n",
}


def git(repo, *args):
    return subprocess.run(
        ["git", *args], cwd=repo, check=True, capture_output=True, text=True
    ).stdout.strip()


def write_notebook(repo, size_source, sources):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(size_source)]
    nb.cells[0].id = "size"
    for cell_id, source in sources.items():
        cell = nbformat.v4.new_code_cell(source, metadata={"tags": TAGS})
        cell.id = cell_id
        nb.cells.append(cell)
    (repo / "notebooks").mkdir(exist_ok=True)
    nbformat.write(nb, repo / "notebooks" / "x.ipynb")


@pytest.fixture
def repo(tmp_path):
    git(tmp_path, "init", "-q")
    git(tmp_path, "config", "user.email", "t@example.com")
    git(tmp_path, "config", "user.name", "t")
    write_notebook(tmp_path, SIZE, GPU_CELLS)
    git(tmp_path, "add", ".")
    git(tmp_path, "commit", "-qm", "the GPU ran this")
    return tmp_path


def old_reference(source, origin):
    """A reference as stored before: under the body's hash alone."""
    return {
        "sha256": references.body_sha256(references.cell_body(source)),
        "output": "4096\n",
        "device": "NVIDIA H100 80GB HBM3",
        "torch": "2.11.0",
        "cuda": "13.0",
        "date": "2026-11-23",
        "origin": origin,
    }


def results_with(repo, entries):
    path = repo / "results" / "NVIDIA-H100-80GB-HBM3" / "cells" / "notebooks_x.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"notebook": "notebooks/x.ipynb", "cells": entries}))
    return path


def test_only_references_whose_code_and_code_above_are_unchanged_are_rekeyed(repo, capsys):
    commit = git(repo, "rev-parse", "--short", "HEAD")
    at = f"make gpu-check at commit {commit}"
    entries = {cell_id: old_reference(src, at) for cell_id, src in GPU_CELLS.items()}
    entries["nocommit"]["origin"] = "the course's first H100 run"
    entries["wrongsha"]["sha256"] = "0" * 64  # not the cell's code at that commit
    path = results_with(repo, entries)
    # today: one cell's code changed; the others' code as at the commit
    write_notebook(repo, SIZE, dict(GPU_CELLS, body="%%requires_gpu\nprint(n + 2)\n"))

    assert rekey.migrate(repo / "results", write=True, root=repo) == (1, 3, 0)
    out = capsys.readouterr().out
    assert "re-keyed  NVIDIA-H100-80GB-HBM3 notebooks/x.ipynb same: its code and the 2 " in out
    assert f"body: the cell's code changed since {commit}" in out
    assert 'nocommit: its origin "the course\'s first H100 run" names no commit' in out
    assert f"wrongsha: its recorded code is not the cell's code at {commit}" in out
    data = json.loads(path.read_text())
    assert set(data["cells"]) == {"same"}
    nb = nbformat.read(repo / "notebooks" / "x.ipynb", as_version=4)
    earlier = references.earlier_sources(nb.cells, "same")
    [found] = references.find_reference(GPU_CELLS["same"], repo / "results", earlier=earlier)
    assert found["output"] == "4096\n" and found["reads"] == ["on_gpu = True", SIZE.split("\n")[1]]
    # a second run finds nothing left to move
    assert rekey.migrate(repo / "results", write=False, root=repo) == (0, 0, 1)


def test_a_size_changed_above_makes_the_reference_stale(repo, capsys):
    commit = git(repo, "rev-parse", "--short", "HEAD")
    path = results_with(
        repo, {"same": old_reference(GPU_CELLS["same"], f"make gpu-check at commit {commit}")}
    )
    write_notebook(repo, "on_gpu = True\nn = 8192 if on_gpu else 256\n", GPU_CELLS)
    assert rekey.migrate(repo / "results", write=True, root=repo) == (0, 1, 0)
    out = capsys.readouterr().out
    assert f"same: what it reads above changed since {commit}: ran after 'n = 4096 if on_gpu" in out
    assert "reads now 'n = 8192 if on_gpu else 256'" in out
    assert not path.exists()  # no reference left in the file


def test_a_dry_run_changes_nothing_and_a_bad_folder_is_named(repo, capsys):
    commit = git(repo, "rev-parse", "--short", "HEAD")
    path = results_with(
        repo, {"same": old_reference(GPU_CELLS["same"], f"make gpu-check at commit {commit}")}
    )
    before = path.read_text()
    assert rekey.migrate(repo / "results", write=False, root=repo) == (1, 0, 0)
    assert path.read_text() == before
    with pytest.raises(SystemExit):
        rekey.main(["--results", str(repo / "nowhere")])
    assert "--results must be a folder of GPU results" in capsys.readouterr().err
