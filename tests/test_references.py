import ast
import json
import re
from pathlib import Path
from textwrap import indent

import nbformat
import pytest
import torch

from d2lgpu import magics, references
from d2lgpu._cell_keys import _key_text
from d2lgpu._cell_statements import statements

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


@pytest.fixture(autouse=True)
def parsed_afresh():
    # statements() keeps the cells it parsed: a cache filled by an earlier test (or, under
    # `make mutation`, by mutmut's first run of the tests) would answer without the parser.
    statements.cache_clear()


def gpu_cells(path):
    nb = nbformat.read(path, as_version=4)
    return [
        c
        for c in nb.cells
        if c.cell_type == "code" and magics.gpus_needed(c.metadata.get("tags", []))
    ]


def skipped_output(capsys, monkeypatch, source, results_dir=None, earlier=()):
    monkeypatch.setattr(magics, "num_gpus", lambda: 0)
    if results_dir is not None:
        monkeypatch.setattr(references, "RESULTS_DIR", Path(results_dir))
    line, _, body = source.partition("\n")
    magics.requires_gpu(line.removeprefix("%%requires_gpu"), body, namespace={}, earlier=earlier)
    return capsys.readouterr().out


# The one caption format of a reference block, in the lab and in the book; where the installed
# torch release differs, the caption ends with a note saying which one this machine has.
CAPTION = (
    r"^Recorded on \S.* with torch \d\S*, \d{4}-\d{2}-\d{2}( \(this machine has torch \S+\))?$"
)
HEADING = "Recorded on NVIDIA H100 80GB HBM3 with torch 2.11.0+cu130, 2026-11-23"
NOTE = "(this machine has torch 2.14.1)"
BOX = (
    '<div style="border: 1px solid #999; border-left: 4px solid #e69f00; '
    'padding: 0.3em 0.8em; margin: 0.2em 0">'
)


def test_a_recorded_cell_shows_its_output_with_provenance(tmp_path, capsys, monkeypatch):
    source = "%%requires_gpu\nprint('fast')\n"
    references.record_reference(tmp_path, "notebooks/x.ipynb", "id1", source, "fast\n", PROVENANCE)
    monkeypatch.setattr(magics, "mps_available", lambda: False)
    monkeypatch.setattr(torch, "__version__", "2.11.0")  # the same release: no torch line
    out = skipped_output(capsys, monkeypatch, source, tmp_path)
    # Outside IPython the display falls back to its plain text, below the skip line.
    assert out == f"Skipped: this cell needs a CUDA GPU; 0 are visible here.\n{HEADING}\n    fast\n"


def test_a_two_gpu_cell_shows_its_reference_under_its_own_skip_line(tmp_path, capsys, monkeypatch):
    source = "%%requires_gpu 2\nprint('both')\n"
    references.record_reference(tmp_path, "notebooks/x.ipynb", "id2", source, "both\n", PROVENANCE)
    monkeypatch.setattr(magics, "mps_available", lambda: False)
    monkeypatch.setattr(torch, "__version__", "2.14.1+cpu")
    out = skipped_output(capsys, monkeypatch, source, tmp_path)
    assert out == (
        f"Skipped: this cell needs 2 CUDA GPUs; 0 are visible here.\n{HEADING} {NOTE}\n    both\n"
    )


def test_a_changed_cell_says_no_reference_exists_and_shows_no_stale_one(
    tmp_path, capsys, monkeypatch
):
    old = "%%requires_gpu\nprint('slow')\n"
    references.record_reference(tmp_path, "notebooks/x.ipynb", "id1", old, "slow\n", PROVENANCE)
    monkeypatch.setattr(magics, "mps_available", lambda: False)
    out = skipped_output(capsys, monkeypatch, "%%requires_gpu\nprint('slower')\n", tmp_path)
    assert out == (
        "Skipped: this cell needs a CUDA GPU; 0 are visible here. "
        "The text above says what it shows.\n"
        "No GPU reference output exists yet for this cell's code: it has not been run on a GPU "
        "since it last changed (see docs/gpu-run.md).\n"
    )
    # trailing blanks are not a change of code
    out = skipped_output(capsys, monkeypatch, "%%requires_gpu\nprint('slow')   \n\n", tmp_path)
    assert f"{HEADING} {NOTE}\n" in out and out.endswith("\n    slow\n")


def test_a_damaged_results_folder_says_so_and_does_not_stop_the_notebook(
    tmp_path, capsys, monkeypatch
):
    (tmp_path / "GPU" / "cells").mkdir(parents=True)
    (tmp_path / "GPU" / "cells" / "x.json").write_text("{not json")
    monkeypatch.setattr(magics, "mps_available", lambda: False)
    out = skipped_output(capsys, monkeypatch, "%%requires_gpu\nx = 1\n", tmp_path)
    first, second = out.splitlines()
    assert first.endswith("here. The text above says what it shows.")
    assert second.startswith("No GPU reference output could be read (JSONDecodeError:")


def test_a_results_file_cut_short_or_in_the_first_format_still_serves_its_references(tmp_path):
    cells = tmp_path / "NVIDIA-H100-80GB-HBM3" / "cells"
    cells.mkdir(parents=True)
    (cells / "notebooks_01_x.json").write_text('{"notebook": "notebooks/01_x.ipynb"}')
    assert references.load_references(tmp_path) == {}  # no cells yet: no references
    # the first format: no body hash, no notebook; the key was the hash of the body alone
    body = "print('the first format')"
    old = {k: PROVENANCE[k] for k in references.PROVENANCE_KEYS}
    old.update(sha256=references.body_sha256(body), output="x\n")
    (cells / "solutions_02_x.json").write_text(json.dumps({"cells": {"c1": old}}))
    [entry] = references.find_reference(body, tmp_path)
    assert entry["notebook"] == "solutions_02_x" and entry["cell_id"] == "c1"
    assert references.body_has_reference(body, tmp_path)
    assert not references.body_has_reference("print('never run')", tmp_path)
    # only the folder asked: the course's own references do not have it
    assert not references.body_has_reference(body)
    # a worked solution's reference in the first format is still the worked solution's
    (cells / "solutions_03_x.json").write_text(
        json.dumps({"notebook": "solutions/03_x.ipynb", "cells": {"c2": old}})
    )
    (tmp_path / "solutions").mkdir()
    (tmp_path / "solutions" / "03_x.ipynb").write_text(
        json.dumps({"cells": [{"id": "c2", "cell_type": "code", "source": [body]}]})
    )
    [shown] = references.solution_reference(body, tmp_path, root=tmp_path)
    assert (shown["notebook"], shown["cell_id"]) == ("solutions/03_x.ipynb", "c2")


@pytest.mark.parametrize(
    "installed, note",
    [
        (None, ""),  # not compared
        ("2.11.0", ""),
        ("2.11.0+cpu", ""),  # another build of the same release
        ("2.14.1+cu130", " (this machine has torch 2.14.1)"),
        ("2.12.0.dev20260101", " (this machine has torch 2.12.0)"),
    ],
)
def test_the_caption_says_when_the_torch_release_differs(installed, note):
    entry = dict(PROVENANCE, output="fast\n")
    assert references.format_reference([entry], installed) == f"{HEADING}{note}\n    fast"
    html = references.reference_bundle([entry], installed)["text/html"]
    assert (f"<strong>{HEADING}</strong> <em>{note.strip()}</em><pre" in html) == bool(note)
    assert "recorded with torch" not in html  # no extra line under the caption


def test_the_bundle_is_a_labelled_box_with_the_output_escaped():
    entry = dict(PROVENANCE, output="matmul  void gemm<float, 5>\nA & B 'q' \"d\"\n\n")
    bundle = references.reference_bundle([entry], "2.14.1")
    assert bundle == {
        "text/html": (
            f"{BOX}<strong>{HEADING}</strong> <em>{NOTE}</em>"
            '<pre style="margin: 0.3em 0 0">matmul  void gemm&lt;float, 5&gt;\n'
            "A &amp; B &#x27;q&#x27; &quot;d&quot;</pre></div>"
        ),
        "text/plain": (f"{HEADING} {NOTE}\n    matmul  void gemm<float, 5>\n    A & B 'q' \"d\""),
    }


def test_other_gpus_are_collapsed_below_the_shown_block_and_escaped_too():
    h100 = dict(PROVENANCE, output="")
    other = dict(PROVENANCE, device="Tesla <T4>", torch="2.14.1", output="x\n")
    bundle = references.reference_bundle([other, h100], "2.14.1")
    shown, _, collapsed = bundle["text/html"].partition("<details")
    # the same date: the device's name orders them, whatever order they were found in
    assert shown.count(BOX) == 1 and f"<strong>{HEADING}</strong> <em>" in shown
    assert "(nothing)</pre>" in shown
    assert collapsed.startswith(' style="margin: 0.2em 0"><summary>Other GPUs: Tesla &lt;T4&gt;')
    assert " open" not in collapsed.partition(">")[0]  # closed until the reader opens it
    assert collapsed.count(BOX) == 1 and collapsed.endswith("</details>")
    assert "<strong>Recorded on Tesla &lt;T4&gt; with torch 2.14.1, 2026-11-23</strong><pre" in (
        collapsed
    )  # recorded with the installed release: no note
    assert bundle["text/plain"].splitlines() == [
        f"{HEADING} {NOTE}",
        "    (nothing)",
        "Other GPUs: Tesla <T4>",
        "Recorded on Tesla <T4> with torch 2.14.1, 2026-11-23",
        "    x",
    ]
    with pytest.raises(ValueError, match="^no references to show: say NO_REFERENCE instead$"):
        references.reference_bundle([], "2.14.1")


def test_an_output_is_shown_as_the_gpu_printed_it_and_an_odd_torch_version_as_it_is():
    # a padded table keeps its last line's blanks, a last word in capitals keeps its letters;
    # only the newlines after the output go
    for output in ("size   time   \n  64   1.2 ms   \n\n", "ran on the NVIDIA TITAN X\n"):
        text = references.format_reference([dict(PROVENANCE, output=output)])
        assert text == HEADING + "\n" + indent(output.rstrip("\n"), "    "), output
    # a torch built from source may report a version that is no release number
    assert references.torch_release(" local-build \n") == "local-build"
    note = references.format_reference([dict(PROVENANCE, output="x\n")], "local-build")
    assert note.startswith(f"{HEADING} (this machine has torch local-build)\n")


H200 = dict(PROVENANCE, device="NVIDIA H200", date="2026-11-28")
H200_HEADING = "Recorded on NVIDIA H200 with torch 2.11.0+cu130, 2026-11-28"


def test_the_newest_recording_is_shown_and_the_same_output_is_shown_once():
    h100, h200 = dict(PROVENANCE, output="same\n"), dict(H200, output="same\n")
    text = references.format_reference([h100, h200], "2.11.0")
    # one block, the newest recording's caption first, every GPU listed
    assert text == f"{H200_HEADING}\n{HEADING}\n    same"
    bundle = references.reference_bundle([h100, h200], "2.14.1")
    assert "<details" not in bundle["text/html"] and bundle["text/html"].count("<pre") == 1
    assert bundle["text/html"].count("<strong>Recorded on ") == 2
    assert (
        f"<strong>{H200_HEADING}</strong> <em>{NOTE}</em><br><strong>{HEADING}</strong>"
        in (bundle["text/html"])
    )  # the note once per block
    h200 = dict(H200, output="faster\n")
    text = references.format_reference([h100, h200], "2.11.0")
    assert text.splitlines() == [H200_HEADING, "    faster", "Other GPUs: NVIDIA H100 80GB HBM3",
                                 HEADING, "    same"]  # fmt: skip


def test_no_reference_is_lost_and_each_caption_has_the_one_format():
    # six recordings, two of them identical, in no particular order
    entries = [
        dict(PROVENANCE, device=f"GPU {name}", date=date, output=output)
        for name, date, output in [
            ("B", "2026-11-01", "b\n"),
            ("F", "2026-12-24", "f\n"),
            ("A", "2026-11-01", "a\n"),
            ("E", "2026-12-24", "same\n"),
            ("C", "2026-10-01", "same\n"),
            ("D", "2026-09-30", "d\n"),
        ]
    ]
    blocks = references.format_reference(entries, "2.14.1").split("\nOther GPUs: ")
    assert len(blocks) == 2  # one shown, the others under one heading
    assert blocks[0] == f"Recorded on GPU E with torch 2.11.0+cu130, 2026-12-24 {NOTE}\n" + (
        "Recorded on GPU C with torch 2.11.0+cu130, 2026-10-01\n    same"
    )  # E and F share the newest date: by name
    assert blocks[1].splitlines()[0] == "GPU F, GPU A, GPU B and GPU D"
    text = "\n".join(blocks)
    html = references.reference_bundle(entries, "2.14.1")["text/html"]
    for entry in entries:
        assert text.count(references.caption(entry)) == 1, entry["device"]
        assert html.count(f"<strong>{references.caption(entry)}</strong>") == 1
        assert f"    {entry['output'].strip()}" in text
    captions = [line for line in text.splitlines() if line.startswith("Recorded on ")]
    assert len(captions) == 6 and all(re.match(CAPTION, c) for c in captions), captions
    assert html.count("<pre") == 5  # six recordings, two of them with the same output
    # each block, the collapsed ones too, says the release differs, once
    assert text.count(NOTE) == 5 and html.count(f"<em>{NOTE}</em>") == 5
    # the collapsed blocks are boxes one after the other, nothing shown between them
    collapsed = html.partition("</summary>")[2].removesuffix("</details>")
    boxes = collapsed.split(BOX)
    assert boxes[0] == "" and len(boxes) == 5 and all(b.endswith("</pre></div>") for b in boxes[1:])


def test_the_bundle_is_the_same_at_every_run(tmp_path):
    # nbval would compare both parts: nothing in them may change from one run to the next.
    source = "%%requires_gpu\nprint(1)\n"
    references.record_reference(tmp_path, "notebooks/x.ipynb", "c", source, "1\n", PROVENANCE)
    body = references.cell_body(source)
    first = references.reference_bundle(references.find_reference(body, tmp_path), "2.14.1")
    again = references.reference_bundle(references.find_reference(body, tmp_path), "2.14.1")
    assert first == again and "2026-11-23" in first["text/plain"]


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
    # the statements above that the key covers are stored with it, for the file's reader
    references.record_reference(
        tmp_path, "solutions/02_tensors.ipynb", "c3", "print(n)", "4\n", PROVENANCE,
        earlier=["n = 4\nm = 5\n"],
    )  # fmt: skip
    assert json.loads(path.read_text())["cells"]["c3"]["reads"] == ["n = 4"]
    # a notebook named by a longer path is filed under its folder and name alone
    elsewhere = references.reference_file(tmp_path, "NVIDIA H200", "/home/me/d2l/notebooks/04_amp")
    assert elsewhere == tmp_path / "NVIDIA-H200" / "cells" / "notebooks_04_amp.json"


def test_a_new_reference_adds_lines_to_the_stored_file_and_changes_none(tmp_path):
    # The results files are in the repository: a GPU run's diff shows only what it added.
    import difflib

    stored = sorted(references.RESULTS_DIR.glob("*/cells/*.json"))[0]
    before = stored.read_text()
    data = json.loads(before)
    [device] = {entry["device"] for entry in data["cells"].values()}
    copy = tmp_path / stored.relative_to(references.RESULTS_DIR)
    copy.parent.mkdir(parents=True)
    copy.write_text(before)
    provenance = dict(PROVENANCE, device=device)
    written = references.record_reference(
        tmp_path, data["notebook"], "000000000000", "print(1)", "1\n", provenance
    )
    after = copy.read_text()
    assert written == copy
    changes = [d for d in difflib.ndiff(before.splitlines(), after.splitlines()) if d[0] in "+-"]
    assert changes and all(d.startswith("+ ") for d in changes), changes[:5]
    assert after.endswith("}\n") and '\n  "000000000000": {\n   "body_sha256": ' in after


@pytest.mark.parametrize("key", references.PROVENANCE_KEYS)
def test_a_reference_without_its_provenance_is_refused(tmp_path, key):
    missing = re.escape(f"missing {[key]}")
    with pytest.raises(
        ValueError,
        match=f"^provenance must give {', '.join(references.PROVENANCE_KEYS)}; {missing}$",
    ):
        references.record_reference(
            tmp_path, "notebooks/x.ipynb", "c", "x", "", dict(PROVENANCE, **{key: ""})
        )


def test_device_slug_and_its_errors():
    assert references.device_slug(" NVIDIA H100 80GB HBM3 ") == "NVIDIA-H100-80GB-HBM3"
    assert references.device_slug("NVIDIA A100-SXM4-40GB") == "NVIDIA-A100-SXM4-40GB"
    assert references.device_slug("NVIDIA GeForce RTX 4090") == "NVIDIA-GeForce-RTX-4090"
    assert references.device_slug("(NVIDIA TITAN X)") == "NVIDIA-TITAN-X"
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
    # as a .ipynb file holds them: texts as lists of lines, an SVG figure, parts left out
    saved = [
        {"output_type": "stream", "name": "stdout", "text": ["step 1\n", "step 2\n"]},
        {"output_type": "stream", "name": "stderr"},
        {"output_type": "execute_result", "data": {"text/plain": ["(4096,", " 4096)"]}},
        {"output_type": "execute_result"},
        {"output_type": "display_data", "data": {"image/svg+xml": "<svg/>", "text/plain": "<F>"}},
    ]
    assert references.outputs_to_text(saved) == "step 1\nstep 2\n(4096, 4096)\n[a figure]\n"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_gpu_cell_shows_a_current_reference_or_says_there_is_none(path, capsys, monkeypatch):
    nb = nbformat.read(path, as_version=4)
    for cell in gpu_cells(path):
        assert cell.source.startswith("%%requires_gpu"), cell.id
        earlier = references.earlier_sources(nb.cells, cell.id)
        out = skipped_output(capsys, monkeypatch, cell.source, earlier=earlier)
        entries = references.find_reference(references.cell_body(cell.source), earlier=earlier)
        if entries:
            assert "Recorded on " in out and "No GPU reference" not in out, cell.id
            assert re.search(CAPTION, out, flags=re.M), cell.id
            for entry in entries:
                assert all(entry.get(k) for k in references.PROVENANCE_KEYS), (cell.id, entry)
        elif references.solution_reference(cell.source):  # an exercise: the worked solution's
            assert path.parent.name == "exercises", cell.id
            assert "\nThe worked solution, run on " in out and "No GPU reference" not in out
            assert re.search(CAPTION, out, flags=re.M), cell.id
        else:
            assert references.NO_REFERENCE in out or references.OTHER_CELLS_ABOVE in out, cell.id


EXERCISES = [p for p in NOTEBOOKS if p.parent.name == "exercises"]


@pytest.mark.parametrize("path", EXERCISES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_exercise_gpu_cell_shows_its_worked_solutions_reference(path, capsys, monkeypatch):
    # The stubs are code no GPU ran: each GPU cell whose solution has a reference shows it.
    exercise = nbformat.read(path, as_version=4)
    solution = nbformat.read(ROOT / "solutions" / path.name, as_version=4)
    for cell in gpu_cells(path):
        [twin] = [c for c in solution.cells if c.id == cell.id]
        recorded = references.find_reference(
            twin.source, earlier=references.earlier_sources(solution.cells, twin.id)
        )
        if not recorded:
            continue
        earlier = references.earlier_sources(exercise.cells, cell.id)
        out = skipped_output(capsys, monkeypatch, cell.source, earlier=earlier)
        own = references.find_reference(cell.source, earlier=earlier)
        shown = references.format_reference(own or recorded, torch.__version__, solution=not own)
        assert out == f"Skipped: this cell needs a CUDA GPU; 0 are visible here.\n{shown}\n", (
            cell.id
        )


# A statement whose source says it depends on the device (a GPU size, the device itself).
GPU_DEPENDENT = re.compile(r"cuda|gpu|device", re.IGNORECASE)


def _bound_names(stmt):
    """The names a top-level statement binds in the notebook's namespace."""
    names, todo = set(), [stmt]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update(a.asname or a.name.split(".")[0] for a in node.names)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)  # what its body binds is its own
            todo += node.decorator_list
        elif not isinstance(node, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp)):
            if not isinstance(node, ast.GeneratorExp):
                todo += ast.iter_child_nodes(node)
    return names


def _python(source):
    from IPython.core.inputtransformer2 import TransformerManager

    return TransformerManager().transform_cell(references.cell_body(source))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_gpu_cell_key_covers_the_gpu_dependent_values_it_reads_from_above(path):
    # Checked apart from references.dependencies: the last earlier top-level statement that
    # binds a name the cell reads (and does not bind itself), when its lines mention the
    # device, must be in the text the key hashes; and editing it must change the key.
    nb = nbformat.read(path, as_version=4)
    for cell in gpu_cells(path):
        earlier = references.earlier_sources(nb.cells, cell.id)
        tree = ast.parse(_python(cell.source))
        # what the cell reads, less anything it binds anywhere (arguments included)
        read = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
        read -= {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and n.ctx != ast.Load()}
        read -= {n.arg for n in ast.walk(tree) if isinstance(n, ast.arg)}
        read -= {n for stmt in tree.body for n in _bound_names(stmt)}
        last = {}  # name -> (cell index, statement, its lines with comments)
        for index, source in enumerate(earlier):
            text = _python(source)
            lines = text.splitlines()
            for stmt in ast.parse(text).body:
                whole = "\n".join(lines[stmt.lineno - 1 : stmt.end_lineno])
                for name in _bound_names(stmt) & read:
                    last[name] = (index, ast.get_source_segment(text, stmt), whole)
        key_text = _key_text(cell.source, earlier)
        key = references.cell_key(cell.source, earlier)
        for name, (index, segment, whole) in sorted(last.items()):
            if not GPU_DEPENDENT.search(whole):
                continue
            assert segment in key_text, f"{cell.id} reads {name}, set by {segment!r}"
            edited = list(earlier)  # the same statement, now run only on some paths
            edited[index] = edited[index].replace(segment, "if True:\n" + indent(segment, "    "))
            assert references.cell_key(cell.source, edited) != key, (cell.id, name, segment)


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


def test_every_reference_recorded_on_a_gpu_is_found_again_while_its_code_is_unchanged():
    # A GPU run is rare: today's key of a cell whose code, and the code above that it reads,
    # are what the GPU ran (the body's hash and the reads stored with the reference) must be
    # the key the reference is stored under, or every such reference would be lost at once.
    found = 0
    for path in sorted(references.RESULTS_DIR.glob("*/cells/*.json")):
        data = json.loads(path.read_text())
        nb = nbformat.read(ROOT / data["notebook"], as_version=4)
        cells = {c.id: c for c in nb.cells}
        for cell_id, entry in data["cells"].items():
            source = cells[cell_id].source
            earlier = references.earlier_sources(nb.cells, cell_id)
            body = references.body_sha256(references.cell_body(source))
            if entry["body_sha256"] != body or entry["reads"] != references.dependencies(
                source, earlier
            ):
                continue
            assert references.cell_key(source, earlier) == entry["sha256"], (path, cell_id)
            shown = references.find_reference(source, earlier=earlier)
            assert any(e.items() >= entry.items() for e in shown), (path, cell_id)
            found += entry["reads"] != []
    assert found >= 30  # most GPU cells read sizes or the device from the cells above


SETUP = "import torch\nimport d2lgpu\n%load_ext d2lgpu.magics\ndevice = d2lgpu.try_gpu()\n"


def test_the_key_covers_a_gpu_size_set_above_and_what_it_reads():
    earlier = [SETUP, "on_gpu = device.type == 'cuda'\nn = 4096 if on_gpu else 256\nm = 1\n"]
    body = "%%requires_gpu\nx = torch.ones(n, device=device)\nprint(x.sum())\n"
    assert references.dependencies(body, earlier) == [
        "import torch",
        "import d2lgpu",
        "device = d2lgpu.try_gpu()",
        "on_gpu = device.type == 'cuda'",
        "n = 4096 if on_gpu else 256",
    ]
    key = references.cell_key(body, earlier)
    bigger = [SETUP, earlier[1].replace("4096", "8192")]
    assert references.cell_key(body, bigger) != key
    # what the cell does not read, comments and blank lines are not part of the key
    quiet = [
        SETUP + "\n\n",
        "on_gpu = device.type == 'cuda'  # ok\n\nn = 4096 if on_gpu else 256\nm = 2\n",
    ]
    assert references.cell_key(body, quiet) == key
    # the cell's own line magic and trailing blanks are not part of it either
    assert (
        references.cell_key("%%requires_gpu 2\n" + body.split("\n", 1)[1] + "\n\n", earlier) == key
    )
    # a cell that reads nothing from above keeps the key of its code alone
    assert references.cell_key("%%requires_gpu\nprint(1)\n", earlier) == references.body_sha256(
        "print(1)"
    )


def test_the_key_follows_changes_and_conditional_bindings_up_to_the_last_plain_one():
    earlier = [
        "import torch\nxs = [1]\nys = [0]\nys = [2]\n",
        "if torch.cuda.is_available():\n    xs = [1, 2]\n",
        "xs.append(3)\nxs[0] = 5\nys.append(4)\ntorch.manual_seed(0)\ntorch.backends.x = 1\n",
    ]
    reads = references.dependencies("%%requires_gpu\nprint(xs, ys, torch)\n", earlier)
    assert reads == [
        "import torch",
        "xs = [1]",
        "ys = [2]",  # the last plain binding: the one before it does not count
        "if torch.cuda.is_available():\n    xs = [1, 2]",
        "xs.append(3)",
        "xs[0] = 5",
        "ys.append(4)",
        "torch.backends.x = 1",  # set on a module: counts; a module's function called: not
    ]


def test_the_key_covers_what_functions_read_when_called_not_their_arguments():
    earlier = [
        "size = 4096\nscale = 2\nx = 0\n",
        "def work(x, steps=3):\n    return [x * scale for _ in range(steps)]\n",
        "@functools.cache\ndef cached():\n    return size\n",
        "class Net:\n    width = size\n    def f(self, x):\n        return x\n",
        "size = 8\n",  # after the definitions: what cached() reads when the cell calls it
    ]
    assert references.dependencies("%%requires_gpu\nprint(work(1), cached())\n", earlier) == [
        "scale = 2",
        "def work(x, steps=3):\n    return [x * scale for _ in range(steps)]",
        "@functools.cache\ndef cached():\n    return size",
        "size = 8",
    ]
    assert references.dependencies("%%requires_gpu\nprint(Net)\n", earlier) == [
        "size = 4096",
        "class Net:\n    width = size\n    def f(self, x):\n        return x",
    ]
    # the cell's own bindings and comprehension variables are not read from above
    own = (
        "%%requires_gpu\nscale = 3\nfor x in range(2):\n    print([size for size in [x]], scale)\n"
    )
    assert references.dependencies(own, earlier) == []
    # a function the cell defines reads the cell's own binding
    inner = "%%requires_gpu\nscale = 3\ndef g():\n    return scale * x\nprint(g())\n"
    assert references.dependencies(inner, earlier) == ["x = 0"]
    # the same where the function comes first and the cell binds the name after it
    first = "%%requires_gpu\ndef g():\n    return scale * x\nscale = 3\nprint(g())\n"
    assert references.dependencies(first, earlier) == ["x = 0"]
    # a name the cell reads before it binds it, bound by no cell above: nothing from above
    late = "%%requires_gpu\nprint(total)\ntotal = 1\n"
    assert references.dependencies(late, earlier) == []
    assert references.cell_key(late, earlier) == references.body_sha256("print(total)\ntotal = 1")


# What a GPU cell's key covers, construct by construct: (what it shows, the cells above as
# one cell, the GPU cell's body, the statements above that its key covers). A statement that
# binds a name on some paths only, or changes it, keeps the search going to the binding
# before it; a name a statement binds before it reads it is not read from above.
KEY_CASES = [
    ("an annotated size", "n: int = 4096\nm: int\n", "print(n, m)", ["n: int = 4096"]),
    (
        "an annotation and a value read",
        "Size = int\nk = 2\nn: Size = k * 2\n",
        "print(n)",
        ["Size = int", "k = 2", "n: Size = k * 2"],
    ),
    (
        "an annotated name bound inside a block",
        "n = 1\nif True:\n    n: int = 2\n    m = n\n",
        "print(m)",
        ["if True:\n    n: int = 2\n    m = n"],
    ),
    (
        "an element changed in place",
        "i = 0\nx = [0]\nx[i] += 1\n",
        "print(x)",
        ["i = 0", "x = [0]", "x[i] += 1"],
    ),
    ("a name changed by +=", "k = 2\nx = 1\nx += k\n", "print(x)", ["k = 2", "x = 1", "x += k"]),
    (
        "an element set by its index",
        "cfg = {}\nidx = 0\ncfg[idx] = 1\n",
        "print(cfg)",
        ["cfg = {}", "idx = 0", "cfg[idx] = 1"],
    ),
    ("a name deleted", "x = 1\ndel x\n", "print(x)", ["x = 1", "del x"]),
    (
        # what the def reads when it runs, and the later bindings its call reads
        "defaults and annotations rebound after the def",
        "Dtype = float\nscale = 2\nlim = 3\ndef f(x: Dtype, y=scale, *, k=lim):\n    return x\n"
        "Dtype = int\nscale = 4\nlim = 5\n",
        "print(f(1))",
        [
            "Dtype = float",
            "scale = 2",
            "lim = 3",
            "def f(x: Dtype, y=scale, *, k=lim):\n    return x",
            "Dtype = int",
            "scale = 4",
            "lim = 5",
        ],
    ),
    (
        "a decorator",
        "deco = lambda f: f\n@deco\ndef g():\n    return 1\n",
        "print(g())",
        ["deco = lambda f: f", "@deco\ndef g():\n    return 1"],
    ),
    (
        "a lambda's default rebound after it",
        "d = 2\nf = lambda v=d: v\nd = 5\nx = 9\nfs = [lambda v=x: v for x in [1]]\nx = 10\n",
        "print(f(), fs)",
        ["d = 2", "f = lambda v=d: v", "d = 5", "fs = [lambda v=x: v for x in [1]]", "x = 10"],
    ),
    (
        "a comprehension's condition",
        "lim = 2\n",
        "print([v for v in range(5) if v < lim])",
        ["lim = 2"],
    ),
    (
        "a function redefined in a block",
        "def g():\n    return 1\nif True:\n    def g():\n        return 2\n    h = g()\n",
        "print(h)",
        ["if True:\n    def g():\n        return 2\n    h = g()"],
    ),
    (
        "a class and its base",
        "Base = object\nclass Net(Base):\n    pass\n",
        "print(Net)",
        ["Base = object", "class Net(Base):\n    pass"],
    ),
    (
        "a class redefined in a block",
        "class K:\n    pass\nif True:\n    class K:\n        pass\n    k = K()\n",
        "print(k)",
        ["if True:\n    class K:\n        pass\n    k = K()"],
    ),
    (
        "names bound in a block before they are read",
        "x = 0\na = 0\ns = 0\nif True:\n    x = 1\n    a, b = 1, 2\n    *s, t = [1, 2]\n    y = x + a + len(s)\n",
        "print(y)",
        ["if True:\n    x = 1\n    a, b = 1, 2\n    *s, t = [1, 2]\n    y = x + a + len(s)"],
    ),
    (
        "unpacked names",
        "a, b = 1, 2\n*c, d = [1, 2]\n",
        "print(a, c)",
        ["a, b = 1, 2", "*c, d = [1, 2]"],
    ),
    (
        "a loop's iterable and its else",
        "items = [1]\nfor v in items:\n    last = v\nelse:\n    done = True\n",
        "print(last)",
        ["items = [1]", "for v in items:\n    last = v\nelse:\n    done = True"],
    ),
    (
        "the variables of a loop",
        "for i, j in [(1, 2)]:\n    pass\n",
        "print(j)",
        ["for i, j in [(1, 2)]:\n    pass"],
    ),
    (
        "an if's test",
        "flag = True\nif flag:\n    n = 2\n",
        "print(n)",
        ["flag = True", "if flag:\n    n = 2"],
    ),
    (
        "a with and its variable",
        "f = None\nctx = open_it()\nwith ctx as f:\n    data = f.read()\n",
        "print(data)",
        ["ctx = open_it()", "with ctx as f:\n    data = f.read()"],
    ),
    (
        "a try, its handler and its else",
        "Err = ValueError\ne = 0\ntry:\n    r = 1\nexcept Err as e:\n    r = e\nelse:\n    ok = True\n",
        "print(r)",
        ["Err = ValueError", "try:\n    r = 1\nexcept Err as e:\n    r = e\nelse:\n    ok = True"],
    ),
    ("a dotted import", "import os.path\n", "print(os.sep)", ["import os.path"]),
    (
        "a dotted import in a block",
        "numpy = None\nif True:\n    import numpy.linalg\n    r = numpy.pi\n",
        "print(r)",
        ["if True:\n    import numpy.linalg\n    r = numpy.pi"],
    ),
    (
        "a method called in a block",
        "xs = []\nif True:\n    xs.append(1)\n",
        "print(xs)",
        ["xs = []", "if True:\n    xs.append(1)"],
    ),
    (
        "a method awaited",
        "q = Queue()\nawait q.put(1)\n",
        "print(q)",
        ["q = Queue()", "await q.put(1)"],
    ),
    ("a name bound by :=", "print(n := 5)\n", "print(n)", ["print(n := 5)"]),
    (
        "a test that binds with :=",
        "k = 3\nif (n := k * 2) > 4:\n    pass\n",
        "print(n)",
        ["k = 3", "if (n := k * 2) > 4:\n    pass"],
    ),
    (
        "a name bound by := before it is read",
        "k = 3\nif (k := 1) and (n := k * 2):\n    pass\n",
        "print(n)",
        ["if (k := 1) and (n := k * 2):\n    pass"],
    ),
    ("two statements on one line", "a = 1; b = 2\n", "print(b)", ["b = 2"]),
    (
        "a lambda's default",
        "d = 2\nf = lambda v=d: v\n",
        "print(f())",
        ["d = 2", "f = lambda v=d: v"],
    ),
    (
        "comprehensions' own variables",
        "x = 9\nv = 7\nrow = [0]\na = 0\nxs = [1]\nrows = [[1]]\nlim = 2\nscale = 3\n",
        "print([(t := x * 2) for x in xs],"
        " [[y * len(row) for y in row] for row in rows], [a[0] + b for a in rows for b in a],"
        " [w for v in range(5) if (w := v) < lim], [(w := v) * scale for v in xs], {v: lim for v in xs})",
        ["xs = [1]", "rows = [[1]]", "lim = 2", "scale = 3"],
    ),
    (
        "a function defined in a match",
        "size = 4\nmatch 1:\n    case 1:\n        def f():\n            return size\n",
        "print(f())",
        ["size = 4", "match 1:\n    case 1:\n        def f():\n            return size"],
    ),
    (
        "what a function binds itself",
        "la = np = numpy = helper = x = 0\ncount = 0\n"
        "def f():\n    import numpy.linalg as la\n    import numpy.fft\n    def helper():\n        return 1\n"
        "    x = 1\n    return numpy.fft, la, helper(), x\n"
        "def bump():\n    global count\n    count = count + 1\n",
        "print(f(), bump())",
        [
            "count = 0",
            "def f():\n    import numpy.linalg as la\n    import numpy.fft\n    def helper():\n        return 1\n"
            "    x = 1\n    return numpy.fft, la, helper(), x",
            "def bump():\n    global count\n    count = count + 1",
        ],
    ),
    (
        "what two methods read",
        "a = 1\nb = 2\nclass K:\n    def f(self):\n        return a\n    def g(self):\n        return b\n",
        "print(K().f())",
        [
            "a = 1",
            "b = 2",
            "class K:\n    def f(self):\n        return a\n    def g(self):\n        return b",
        ],
    ),
]


@pytest.mark.parametrize(
    ("earlier", "body", "covered"), [c[1:] for c in KEY_CASES], ids=[c[0] for c in KEY_CASES]
)
def test_the_key_covers_each_construct_as_python_runs_it(earlier, body, covered):
    assert references.dependencies("%%requires_gpu\n" + body, [earlier]) == covered


def test_the_magic_line_may_follow_blank_lines():
    # a cell whose %%requires_gpu comes after a blank line or indentation keeps its body's key
    for source, body in (("\n%%requires_gpu\nprint(1)\n", "print(1)\n"),
                         ("  %%requires_gpu 2\nprint(1)", "print(1)")):  # fmt: skip
        assert references.cell_body(source) == body
        assert references.cell_key(source) == references.body_sha256("print(1)"), source


def test_a_cell_that_is_not_python_binds_nothing_and_cell_ids_are_checked():
    body = "%%requires_gpu\nprint(n)\n"
    assert references.dependencies(body, ["n = 1\n", "n = (\n"]) == ["n = 1"]
    cells = [{"id": "a", "cell_type": "code", "source": ["x = 1\n", "y = 2"]},
             {"id": "b", "cell_type": "markdown", "source": "text"},
             {"id": "c", "cell_type": "code", "source": "z"}]  # fmt: skip
    assert references.earlier_sources(cells, "c") == ["x = 1\ny = 2"]
    assert references.earlier_sources(cells, "a") == []
    # a code cell saved without its source (a hand-edited notebook) is an empty cell
    cells.insert(1, {"id": "e", "cell_type": "code"})
    assert references.earlier_sources(cells, "c") == ["x = 1\ny = 2", ""]
    with pytest.raises(ValueError, match="cell_id must be the id of one of the notebook's cells"):
        references.earlier_sources(cells, "nope")


def test_a_cell_run_after_other_code_above_says_so(tmp_path, capsys, monkeypatch):
    source = "%%requires_gpu\nprint(n)\n"
    references.record_reference(
        tmp_path, "notebooks/x.ipynb", "c", source, "4096\n", PROVENANCE, earlier=["n = 4096\n"]
    )
    monkeypatch.setattr(magics, "mps_available", lambda: False)
    monkeypatch.setattr(torch, "__version__", "2.11.0")
    out = skipped_output(capsys, monkeypatch, source, tmp_path, earlier=["n = 4096\n"])
    assert out.endswith(f"{HEADING}\n    4096\n")
    out = skipped_output(capsys, monkeypatch, source, tmp_path, earlier=["n = 256\n"])
    assert out.endswith(
        "The text above says what it shows.\n" + references.OTHER_CELLS_ABOVE + "\n"
    )
    out = skipped_output(capsys, monkeypatch, source, tmp_path, earlier=[])
    assert references.OTHER_CELLS_ABOVE in out  # not run above: not what the GPU ran after
    monkeypatch.setenv(references.RESULTS_ENV_VAR, str(tmp_path / "elsewhere"))
    monkeypatch.setattr(references, "RESULTS_DIR", tmp_path)  # the variable wins
    assert references.results_root() == tmp_path / "elsewhere"
    assert references.find_reference(source, earlier=["n = 4096\n"]) == []


# GPU numbers reach a reader only through keyed references: a cell that opened a results
# file itself (chapter 4 once printed an H100 run from cell-runs.jsonl) would show a number
# whose code may have changed since, with nothing to say so.
RESULT_FILES = ("cell-runs", "RESULTS_DIR", "docs/results", "gpu-check.md")


def _names_and_strings(source):
    import io
    import tokenize

    python = _python(source)
    tokens = tokenize.generate_tokens(io.StringIO(python).readline)
    return [t.string for t in tokens if t.type in (tokenize.NAME, tokenize.STRING)]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_no_notebook_reads_a_results_file(path):
    nb = nbformat.read(path, as_version=4)
    reads = [
        (i, word)
        for i, c in enumerate(nb.cells)
        if c.cell_type == "code" and "setup" not in c.metadata.get("tags", [])
        for token in _names_and_strings(c.source)
        for word in RESULT_FILES
        if word in token
    ]
    assert not reads, f"cells that read results files, not keyed references: {reads}"


def test_the_results_file_check_sees_a_read_but_not_a_comment():
    read = 'log = d2lgpu.references.RESULTS_DIR / "NVIDIA-H100-80GB-HBM3" / "cell-runs.jsonl"'
    assert any("RESULTS_DIR" in t for t in _names_and_strings(read))
    assert _names_and_strings("# see docs/results/ and cell-runs.jsonl\nx = 1") == ["x"]


# --- an exercise shows the worked solution's reference where the learner's code has none

SOLUTION_CELLS = [
    "import torch\n%load_ext d2lgpu.magics\nn = 4096  # GPU size",
    "def double(x):\n    ### BEGIN SOLUTION\n    return 2 * x\n    ### END SOLUTION",
    "%%requires_gpu\nprint(double(n))",
]


def exercise_pair(root: Path, results: Path):
    """solutions/99_x.ipynb with a recorded GPU cell (H100, and later H200), and its exercise."""
    solution = nbformat.v4.new_notebook()
    solution.cells = [nbformat.v4.new_code_cell(s) for s in SOLUTION_CELLS]
    solution.cells[2].metadata["tags"] = ["requires-gpu", "nbval-ignore-output"]
    exercise = nbformat.v4.new_notebook()
    exercise.cells = [nbformat.v4.new_code_cell(c.source, id=c.id) for c in solution.cells]
    exercise.cells[1].source = 'def double(x):\n    raise NotImplementedError("your code here")'
    for folder, nb in (("solutions", solution), ("exercises", exercise)):
        (root / folder).mkdir(parents=True, exist_ok=True)
        nbformat.write(nb, root / folder / "99_x.ipynb")
    gpu = solution.cells[2]
    earlier = references.earlier_sources(solution.cells, gpu.id)
    for provenance, output in ((PROVENANCE, "8192\n"), (H200, "8192\nand a second line\n")):
        references.record_reference(
            results, "solutions/99_x.ipynb", gpu.id, gpu.source, output, provenance,
            earlier=earlier,
        )  # fmt: skip
    return solution, exercise


def test_an_exercise_shows_the_worked_solutions_reference_where_its_own_code_has_none(
    tmp_path, capsys, monkeypatch
):
    solution, exercise = exercise_pair(tmp_path, tmp_path / "results")
    monkeypatch.setattr(references, "COURSE_ROOT", tmp_path)
    monkeypatch.setattr(magics, "mps_available", lambda: False)
    monkeypatch.setattr(torch, "__version__", "2.11.0")
    gpu = exercise.cells[2]
    setup = exercise.cells[0].source
    answer = "def double(x):\n    return x + x  # my own answer"
    out = skipped_output(capsys, monkeypatch, gpu.source, tmp_path / "results", [setup, answer])
    assert out == (
        "Skipped: this cell needs a CUDA GPU; 0 are visible here.\n"
        "The worked solution, run on NVIDIA H200: your code has not run on a GPU\n"
        f"{H200_HEADING}\n    8192\n    and a second line\n"
        f"Other GPUs: NVIDIA H100 80GB HBM3\n{HEADING}\n    8192\n"
    )
    bundle = references.reference_bundle(
        references.solution_reference(gpu.source, tmp_path / "results", cell_id=gpu.id),
        solution=True,
    )
    assert bundle["text/html"].startswith(
        '<p style="margin: 0.2em 0; font-weight: bold">The worked solution, run on NVIDIA H200: '
        "your code has not run on a GPU</p>"
    )
    # the learner's code is the solution's: its own reference, no label
    out = skipped_output(capsys, monkeypatch, gpu.source, tmp_path / "results",
                         [setup, solution.cells[1].source])  # fmt: skip
    assert "worked solution" not in out and f"{H200_HEADING}\n    8192\n    and a second" in out
    # another cell (the front end sent another id) of the same code: not the solution's cell
    other = references.solution_reference(gpu.source, tmp_path / "results", cell_id="not-it")
    assert other == []
    # the worked solution changed since its GPU run: its reference no longer holds
    solution.cells[0].source = solution.cells[0].source.replace("4096", "8192")
    nbformat.write(solution, tmp_path / "solutions" / "99_x.ipynb")
    out = skipped_output(capsys, monkeypatch, gpu.source, tmp_path / "results", [setup, answer])
    assert out.endswith(references.OTHER_CELLS_ABOVE + "\n") and "Recorded" not in out
    # no solutions/ next to the references (a wheel): nothing to show either
    (tmp_path / "solutions" / "99_x.ipynb").unlink()
    assert references.solution_reference(gpu.source, tmp_path / "results") == []


def test_only_a_solutions_reference_is_the_worked_solutions(tmp_path, monkeypatch):
    results = tmp_path / "results"
    solution, _ = exercise_pair(tmp_path, results)
    monkeypatch.setattr(references, "COURSE_ROOT", tmp_path)
    gpu = solution.cells[2]
    [found] = [
        e for e in references.solution_reference(gpu.source, results) if e["date"] > "2026-11-24"
    ]
    assert found["notebook"] == "solutions/99_x.ipynb" and found["cell_id"] == gpu.id
    # the same cell recorded for a chapter, not a solution: no worked solution to show
    for path in results.glob("*/cells/*.json"):
        data = json.loads(path.read_text())
        data["notebook"] = "notebooks/99_x.ipynb"
        path.write_text(json.dumps(data))
    (tmp_path / "notebooks").mkdir()
    (tmp_path / "solutions" / "99_x.ipynb").rename(tmp_path / "notebooks" / "99_x.ipynb")
    assert references.solution_reference(gpu.source, results) == []


def test_the_worked_solutions_reference_is_found_past_other_recordings_of_the_same_code(
    tmp_path, monkeypatch
):
    results = tmp_path / "results"
    solution, _ = exercise_pair(tmp_path, results)
    monkeypatch.setattr(references, "COURSE_ROOT", tmp_path / "elsewhere")  # root= says where
    gpu = solution.cells[2]
    earlier = references.earlier_sources(solution.cells, gpu.id)
    A100 = dict(PROVENANCE, device="NVIDIA A100-SXM4-80GB", date="2026-11-01")
    # the same code under the same key in a chapter, recorded on a GPU whose folder comes first
    references.record_reference(
        results, "notebooks/99_x.ipynb", gpu.id, gpu.source, "chapter\n", A100, earlier=earlier
    )
    # solutions recorded with the same code, since renamed, cut short or changed
    for name in ("96_other", "97_empty", "98_gone", "98_no_source"):
        references.record_reference(
            results, f"solutions/{name}.ipynb", gpu.id, gpu.source, "old\n", A100, earlier=earlier
        )
    (tmp_path / "solutions" / "96_other.ipynb").write_text(
        json.dumps({"cells": [{"id": "another", "cell_type": "code", "source": "x = 1"}]})
    )
    (tmp_path / "solutions" / "97_empty.ipynb").write_text("{}")
    (tmp_path / "solutions" / "98_no_source.ipynb").write_text(
        json.dumps({"cells": [{"id": gpu.id, "cell_type": "code"}]})
    )
    found = references.solution_reference(gpu.source, results, root=tmp_path)
    assert {e["notebook"] for e in found} == {"solutions/99_x.ipynb"}
    assert {e["device"] for e in found} == {PROVENANCE["device"], H200["device"]}
