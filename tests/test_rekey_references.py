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


# --- References under the current key: assert messages may change, nothing else ----------

MESSAGE_SIZE = (
    "on_gpu = True\n"
    "def size(n):\n"
    "    assert n > 0\n"
    "    return n\n"
    "n = size(4096 if on_gpu else 256)\n"
    "label = 'elements'\n"
)
MESSAGE_CELL = "%%requires_gpu\nt = n * 2\nassert t > n\nprint(t)\n"


@pytest.fixture
def message_repo(tmp_path):
    git(tmp_path, "init", "-q")
    git(tmp_path, "config", "user.email", "t@example.com")
    git(tmp_path, "config", "user.name", "t")
    write_notebook(tmp_path, MESSAGE_SIZE, {"msg": MESSAGE_CELL})
    git(tmp_path, "add", ".")
    git(tmp_path, "commit", "-qm", "the GPU ran this")
    return tmp_path


def recorded(repo):
    """A reference of MESSAGE_CELL as make gpu-check stores it now, recorded at HEAD."""
    commit = git(repo, "rev-parse", "--short", "HEAD")
    nb = nbformat.read(repo / "notebooks" / "x.ipynb", as_version=4)
    earlier = references.earlier_sources(nb.cells, "msg")
    return {
        **old_reference(MESSAGE_CELL, f"make gpu-check at commit {commit}"),
        "sha256": references.cell_key(MESSAGE_CELL, earlier),
        "body_sha256": references.body_sha256(references.cell_body(MESSAGE_CELL)),
        "reads": references.dependencies(MESSAGE_CELL, earlier),
    }


def found_today(repo):
    nb = nbformat.read(repo / "notebooks" / "x.ipynb", as_version=4)
    cell = next(c for c in nb.cells if c.id == "msg")
    earlier = references.earlier_sources(nb.cells, "msg")
    return references.find_reference(cell.source, repo / "results", earlier=earlier)


def test_a_reference_follows_its_cell_when_only_assert_messages_change(message_repo, capsys):
    repo = message_repo
    path = results_with(repo, {"msg": recorded(repo)})
    assert found_today(repo)
    # Messages added in the cell (one reads a name the code does not: label) and in a
    # function above it that the cell reads; a comment too.
    size = MESSAGE_SIZE.replace("assert n > 0", 'assert n > 0, f"n must be positive, got {n}"')
    cell = MESSAGE_CELL.replace(
        "assert t > n", 'assert t > n, f"expected more than {n} {label}, got {t}"  # grows'
    )
    write_notebook(repo, size, {"msg": cell})
    assert not found_today(repo)  # the key changed

    assert rekey.migrate(repo / "results", write=True, root=repo) == (1, 0, 0)
    out = capsys.readouterr().out
    assert "re-keyed  NVIDIA-H100-80GB-HBM3 notebooks/x.ipynb msg: its code and the 3 " in out
    assert "only in assert messages" in out
    [entry] = found_today(repo)
    assert entry["output"] == "4096\n" and entry["device"] == "NVIDIA H100 80GB HBM3"
    stored = json.loads(path.read_text())["cells"]["msg"]
    assert stored["body_sha256"] == references.body_sha256(references.cell_body(cell))
    assert any("must be positive" in statement for statement in stored["reads"])

    # Committed, then the message reworded again: the commit with the re-keyed key is found
    # in the notebook's history (the origin's commit no longer has it).
    git(repo, "commit", "-qam", "messages")
    write_notebook(repo, size, {"msg": cell.replace("expected more than", "wanted over")})
    assert rekey.migrate(repo / "results", write=True, root=repo) == (1, 0, 0)
    assert found_today(repo)
    assert rekey.migrate(repo / "results", write=False, root=repo) == (0, 0, 1)
    assert "already under the cell's current key" in capsys.readouterr().out


@pytest.mark.parametrize(
    "size, cell, what",
    [
        (MESSAGE_SIZE, MESSAGE_CELL.replace("assert t > n", "assert t >= n"), "its code"),
        (MESSAGE_SIZE, MESSAGE_CELL.replace("assert t > n", "assert t > n, n"), None),
        (MESSAGE_SIZE.replace("assert n > 0", "assert n > 1, 'big'"), MESSAGE_CELL, "above"),
        (MESSAGE_SIZE.replace("4096", "8192"), MESSAGE_CELL, "what it reads above"),
    ],
    ids=["test-changed", "message-only", "test-above-changed", "size-changed"],
)
def test_a_change_beyond_assert_messages_leaves_the_reference(
    message_repo, capsys, size, cell, what
):
    repo = message_repo
    path = results_with(repo, {"msg": recorded(repo)})
    before = json.loads(path.read_text())
    write_notebook(repo, size, {"msg": cell})
    counts = rekey.migrate(repo / "results", write=True, root=repo)
    out = capsys.readouterr().out
    if what is None:  # the control: a message alone moves it
        assert counts == (1, 0, 0), out
        return
    assert counts == (0, 0, 1), out
    assert "beyond assert messages: left under its old key" in out and what in out
    assert json.loads(path.read_text()) == before
    assert not found_today(repo)


def test_a_key_no_commit_has_is_left_as_it_is(message_repo, capsys):
    repo = message_repo
    entry = recorded(repo)
    entry["sha256"] = "f" * 64
    results_with(repo, {"msg": entry})
    assert rekey.migrate(repo / "results", write=True, root=repo) == (0, 0, 1)
    assert "no commit of the notebook has the cell with that key" in capsys.readouterr().out


def test_without_assert_messages_keeps_the_test_and_drops_the_gpu_line():
    source = "%%requires_gpu\nassert a == b, f'{a} != {b}'\nassert c\n"
    assert rekey.without_assert_messages(source) == "assert a == b\nassert c"
    assert rekey.without_assert_messages("not python (") == "not python ("
