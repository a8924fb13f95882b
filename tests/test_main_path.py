"""Each chapter's main path: at most 3,000 words, Going-further parts that fold away, no reliance on them.

The rules and the checks are ``tools/main_path.py`` (CONTRIBUTING.md says how to add a
part). Here: the words table (``pytest -rA`` or ``-s`` shows it), the checks on every
chapter, small notebooks proving that each check fails when it should, and chapter 2
run without its Going-further cells.
"""

import importlib.util
import json
import os
import re
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def load_tool():
    spec = importlib.util.spec_from_file_location("main_path", ROOT / "tools" / "main_path.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


mp = load_tool()
CHAPTERS = mp.chapters()


def test_every_main_path_has_at_most_3000_words():
    rows = []
    for path in CHAPTERS:
        nb = mp.load(path)
        rows.append(
            (path.stem, mp.main_path_words(nb), mp.going_further_words(nb), len(mp.parts(nb)))
        )
    print("\n" + mp.table(rows))
    assert len(rows) == 11, f"expected the 11 chapters, found {[r[0] for r in rows]}"
    over = {name: main for name, main, _, _ in rows if main > mp.MAX_WORDS}
    assert not over, (
        f"main paths over {mp.MAX_WORDS} words (markdown cells not tagged going-further): {over}"
    )


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_going_further_parts_fold_as_one_piece(path):
    nb = mp.load(path)
    found = mp.structure_violations(nb) + mp.skipped_levels(nb)
    assert not found, "\n".join(found)


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_the_main_path_never_depends_on_going_further_cells(path):
    nb = mp.load(path)
    found = mp.reads_from_parts(nb) + mp.changed_gpu_keys(nb)
    assert not found, "\n".join(found)


# --- Small notebooks: each check fails when it should ------------------------------------


def md(source, *, further=False, collapsed=False, cell_id=None):
    metadata = {}
    if further:
        metadata["tags"] = [mp.TAG]
    if collapsed:
        metadata[mp.COLLAPSED] = True
    return {"cell_type": "markdown", "id": cell_id or _new_id(), "metadata": metadata,
            "source": source}  # fmt: skip


def code(source, *, further=False, gpu=False, cell_id=None):
    tags = ([mp.TAG] if further else []) + (["requires-gpu", "nbval-ignore-output"] if gpu else [])
    return {
        "cell_type": "code",
        "id": cell_id or _new_id(),
        "metadata": {"tags": tags} if tags else {},
        "source": ("%%requires_gpu\n" + source) if gpu else source,
        "outputs": [],
        "execution_count": None,
    }


_ids = iter(range(10**6))


def _new_id():
    return f"c{next(_ids)}"


def part(*cells, level=3, collapsed=True, title="Going further: the details"):
    """A well-formed Going-further part: its heading, then ``cells`` (tagged here)."""
    head = md(f"{'#' * level} {title}\n\nWhy it is here.", further=True, collapsed=collapsed)
    return [head, *({**c, "metadata": _tagged(c["metadata"])} for c in cells)]


def _tagged(metadata):
    return {**metadata, "tags": [*metadata.get("tags", []), mp.TAG]}


def notebook(*cells):
    return {"cells": list(cells), "metadata": {}, "nbformat": 4, "nbformat_minor": 5}


def good():
    """A chapter in miniature that breaks no rule."""
    return notebook(
        md("# 1. A chapter\n\nWhat you will learn."),
        code("import math\nn = 64"),
        md("## 1.1 A section"),
        code("x = [math.sqrt(i) for i in range(n)]"),
        *part(
            md("The legacy stream, in detail."),
            code("y = n * 2  # only the part uses y\nn_local = 3"),
            md("#### A subheading inside the part"),
        ),
        md("### 1.1.1 Back on the main path"),
        code("print(len(x))", gpu=True, cell_id="gpu1"),
        *part(code("z = sum(x)"), level=2, title="Going further: the end of the chapter"),
        md("## Summary\n\nWhat we did."),
    )


def test_a_well_formed_notebook_breaks_no_rule():
    nb = good()
    assert mp.violations(nb) == []
    assert len(mp.parts(nb)) == 2
    assert mp.main_path_words(nb) == 8 + 4 + 7 + 5  # "#" and "1." are tokens too
    assert mp.going_further_words(nb) == 9 + 5 + 6 + 12


def test_words_count_only_markdown_cells_off_the_parts():
    nb = notebook(
        md("one two\nthree\tfour  five"),
        code("# ten words in a comment do not count at all here"),
        *part(md("six seven")),
    )
    assert mp.main_path_words(nb) == 5
    assert mp.going_further_words(nb) == 9 + 2  # the part's heading cell and its one cell


def test_a_main_path_over_3000_words_is_a_violation():
    nb = notebook(md("# T"), md("word " * 2999))
    assert mp.main_path_words(nb) == 3001
    assert any("3001 words" in v for v in mp.violations(nb))
    nb["cells"][1]["source"] = "word " * 2998
    assert mp.violations(nb) == []


def test_a_name_bound_only_in_a_going_further_cell_is_found():
    nb = good()
    nb["cells"].insert(-1, code("print(y)"))  # y: bound in the first part only
    found = mp.reads_from_parts(nb)
    assert len(found) == 1 and "'y'" in found[0], found


def test_a_function_from_a_going_further_cell_is_found_and_a_main_path_rebinding_is_not():
    nb = notebook(
        md("# T"),
        *part(code("def helper():\n    return 1\n\nk = 2")),
        md("## Next"),
        code("k = 5\nprint(helper() + k)"),  # k: rebound here first; helper: only the part's
        code("def f():\n    return helper()"),  # read when f is called: found too
    )
    found = mp.reads_from_parts(nb)
    assert [re.search(r"reads '(\w+)'", v).group(1) for v in found] == ["helper", "helper"]


@pytest.mark.parametrize(
    "in_part, found",
    [
        ("xs[0] = 9", True),  # changes the main path's list
        ("xs.append(9)", True),  # a method that may change it
        ("for xs in range(2):\n    pass", True),  # binds it on a path
        ("math.sqrt(2)", False),  # a function of an imported module: changes nothing
        ("ys = list(xs)", False),  # reads it only
    ],
)
def test_a_part_that_changes_what_the_main_path_reads_is_found(in_part, found):
    nb = notebook(
        md("# T"),
        code("import math\nxs = [1, 2]"),
        *part(code(in_part)),
        md("## Next"),
        code("print(xs, math.pi)"),
    )
    reads = mp.reads_from_parts(nb)
    assert bool(reads) == found, reads
    if found:
        assert "reads 'xs', which the Going-further cell 3" in reads[0], reads


def test_a_gpu_cell_whose_key_changes_without_the_parts_is_found():
    nb = good()
    assert mp.changed_gpu_keys(nb) == []
    # The part now rebinds n, and a main-path cell after it computes x, which the GPU cell
    # reads, from n: the key covers n's binding in the part.
    nb["cells"][6]["source"] = "n = 128  # a larger size, set in the part"
    nb["cells"].insert(9, code("x = list(range(n))"))
    found = mp.changed_gpu_keys(nb)
    assert len(found) == 1 and "gpu1" in found[0], found
    # n is bound on the main path too, so the cell that reads it after the part is found as
    # reading a name the part rebinds.
    [read] = mp.reads_from_parts(nb)
    assert "reads 'n', which the Going-further cell 6" in read, read


def test_a_part_not_followed_by_a_heading_is_found():
    nb = good()
    nb["cells"][8] = md("Back on the main path, without a heading.")
    found = mp.structure_violations(nb)
    assert len(found) == 1 and "would hide it" in found[0], found
    nb["cells"][8] = md("#### 1.1.1 A lower heading than the part's")
    assert "would hide it" in " ".join(mp.structure_violations(nb))
    nb["cells"][8] = md("Text first,\n\n## 1.2 then a heading")  # JupyterLab folds at ##
    assert mp.structure_violations(nb) == []


def test_a_missing_collapse_flag_is_found():
    nb = good()
    nb["cells"][4]["metadata"].pop(mp.COLLAPSED)
    found = mp.structure_violations(nb)
    assert len(found) == 1 and mp.COLLAPSED in found[0], found
    nb["cells"][4]["metadata"][mp.COLLAPSED] = "true"  # a string is not the flag
    assert len(mp.structure_violations(nb)) == 1


@pytest.mark.parametrize(
    "first, expected",
    [
        (code("x = 1"), "must start with a markdown cell"),
        (md("Some text first\n\n### Going further: x"), "must start with a markdown cell"),
        (md("### The details"), "should read '### Going further: <what it covers>'"),
        (md("### Going further: x\n\n## Inside"), "folds it at level 2"),
    ],
    ids=["code", "text-first", "title", "two-levels"],
)
def test_a_badly_headed_part_is_found(first, expected):
    first["metadata"] = {"tags": [mp.TAG], mp.COLLAPSED: True}
    nb = notebook(md("# T"), first, md("## After"))
    found = mp.structure_violations(nb)
    assert any(expected in v for v in found), found


def test_a_heading_inside_a_part_that_would_end_the_fold_is_found():
    nb = good()
    nb["cells"][7] = md("### A heading as high as the part's", further=True)
    found = mp.structure_violations(nb)
    assert len(found) == 1 and "inside a part" in found[0], found


def test_a_collapsed_main_path_heading_is_found():
    nb = good()
    nb["cells"][2]["metadata"][mp.COLLAPSED] = True
    found = mp.structure_violations(nb)
    assert len(found) == 1 and "main-path cell" in found[0], found


def test_a_part_under_the_title_needs_a_level_2_heading():
    nb = notebook(md("# 1. A chapter"), *part(code("x = 1")), md("## 1.1 The first section"))
    [found] = mp.skipped_levels(nb)
    assert "cell 1" in found and "level-3 heading right after a level-1 one" in found, found
    nb = notebook(md("# 1. A chapter"), *part(code("x = 1"), level=2), md("## 1.1 First"))
    assert mp.violations(nb) == []
    assert mp.skipped_levels(good()) == []


def test_jupyterlab_folds_at_the_highest_heading_outside_code_fences():
    assert mp.fold_level(md("text\n\n### b\n\n## a")) == 2
    assert mp.fold_level(md("```\n# a comment in code\n```\n#### d")) == 4
    assert mp.fold_level(md("Title\n=====")) == 1
    assert mp.fold_level(md("Just text.\n\n- a list")) is None
    assert mp.fold_level(code("# a comment")) is None


def test_the_command_line_exits_1_on_a_violation_and_prints_the_table(tmp_path, capsys):
    ok, bad = tmp_path / "01_ok.ipynb", tmp_path / "02_bad.ipynb"
    ok.write_text(json.dumps(good()))
    broken = good()
    broken["cells"][4]["metadata"].pop(mp.COLLAPSED)
    bad.write_text(json.dumps(broken))
    assert mp.main([str(ok)]) == 0
    assert mp.main([str(ok), str(bad)]) == 1
    out = capsys.readouterr().out
    assert "01_ok" in out and "02_bad" in out and mp.COLLAPSED in out
    assert mp.main(["--words", str(bad)]) == 0
    assert "violation" not in capsys.readouterr().out
    with pytest.raises(SystemExit) as exited:
        mp.main([str(tmp_path / "missing.ipynb")])
    assert exited.value.code == 2
    assert "NOTEBOOK must be an existing .ipynb file" in capsys.readouterr().err


# --- Chapter 2 without its Going-further cells --------------------------------------------


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_chapter_2_runs_without_its_going_further_cells(tmp_path, monkeypatch):
    import nbformat

    from d2lgpu import references
    from tools.kernel_start import NotebookClient  # nbclient's, started again if it died at once

    path = ROOT / "notebooks" / "02_tensors.ipynb"
    full = nbformat.read(path, as_version=4)
    nb = nbformat.from_dict(mp.main_path(full))
    stripped = tmp_path / path.name
    nbformat.write(nb, stripped)
    # A fresh CPU kernel in strict mode, as nbval runs the chapter; it inherits this environment.
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "")
    monkeypatch.setenv("MPLBACKEND", "agg")
    monkeypatch.setenv("D2LGPU_STRICT", "1")
    monkeypatch.delenv("D2LGPU_DEVICE", raising=False)
    client = NotebookClient(
        nb,
        timeout=240,
        startup_timeout=300,  # a kernel on a busy 2-core machine can take over a minute to start
        kernel_name="python3",
        resources={"metadata": {"path": str(tmp_path)}},
    )
    start = time.perf_counter()
    with client.setup_kernel():
        for index, cell in enumerate(nb.cells):
            if cell.cell_type == "code":
                client.execute_cell(cell, index)  # raises CellExecutionError on an error
    seconds = time.perf_counter() - start
    print(f"\nchapter 2 without its {len(full.cells) - len(nb.cells)} going-further cells: "
          f"{len(nb.cells)} cells ran in {seconds:.1f} s")  # fmt: skip
    # Each GPU cell shows, here too, the reference it finds in the whole chapter.
    for cell in nb.cells:
        if cell.cell_type != "code" or "requires-gpu" not in cell.metadata.get("tags", []):
            continue
        earlier = references.earlier_sources(full.cells, cell.id)
        expected = bool(references.find_reference(cell.source, earlier=earlier))
        shown = any("Recorded on" in o.get("data", {}).get("text/plain", "") for o in cell.outputs)
        assert shown == expected, (
            f"GPU cell {cell.id}: shows a reference: {shown}; finds one in the whole chapter: "
            f"{expected}"
        )
    assert os.environ["D2LGPU_STRICT"] == "1"
