"""The exercise suite: exercises/ is generated from solutions/ and current, and both work.

* ``exercises/`` is what ``tools/make_exercises.py`` generates from ``solutions/``
  (same cells and cell ids, stubs, no outputs);
* every solution notebook marks its answers and stores a PASS for each check;
* every exercise notebook runs top to bottom in a fresh kernel on the CPU, and
  every ``check(...)`` in it reports NOT ATTEMPTED YET. nbval does not compare
  notebooks without stored outputs, so this needs its own test.
"""

import importlib.util
import os
import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
SOLUTIONS = sorted((ROOT / "solutions").glob("*.ipynb"))
EXERCISES = sorted((ROOT / "exercises").glob("*.ipynb"))
CHECK_CALL = re.compile(r"^check\(\s*\"(\d\d\.\w+)\"", re.MULTILINE)


def load_tool():
    spec = importlib.util.spec_from_file_location(
        "make_exercises", ROOT / "tools" / "make_exercises.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_there_is_an_exercise_notebook_per_chapter():
    names = [p.name for p in SOLUTIONS]
    for chapter in (
        "01_devices",
        "02_tensors",
        "03_networks",
        "04_amp",
        "05_ddp",
        "06_performance",
        "07_triton",
        "08_streams",
        "09_model_parallel",
        "10_inside_ddp",
        "11_planning",
    ):
        assert f"{chapter}.ipynb" in names
    assert [p.name for p in EXERCISES] == names


def test_exercises_are_current():
    tool = load_tool()
    problems = tool.stale(ROOT / "solutions", ROOT / "exercises")
    assert not problems, "exercises/ is stale; run `make exercises`:\n" + "\n".join(problems)


def test_the_check_mode_reports_a_stale_file(tmp_path, capsys):
    tool = load_tool()
    exercises = tmp_path / "exercises"
    assert tool.main(["--exercises", str(exercises)]) == 0
    assert tool.main(["--check", "--exercises", str(exercises)]) == 0
    (exercises / "01_devices.ipynb").write_text("{}")
    (exercises / "99_orphan.py").write_text("")
    capsys.readouterr()
    assert tool.main(["--check", "--exercises", str(exercises)]) == 1
    out = capsys.readouterr().out
    assert "01_devices.ipynb: differs" in out and "99_orphan.py: has no source" in out


def test_stubs_keep_indentation_and_exercise_parts_are_uncommented():
    tool = load_tool()
    source = (
        "def f(x):\n"
        "    ### BEGIN SOLUTION\n"
        "    return 2 * x\n"
        "    ### END SOLUTION\n"
        "\n"
        "### BEGIN SOLUTION\n"
        "y = f(1)\n"
        "### EXERCISE\n"
        "# y = None  # your turn\n"
        "### END SOLUTION"
    )
    assert tool.strip_code(source) == (
        'def f(x):\n    raise NotImplementedError("your code here")\n\ny = None  # your turn'
    )
    with pytest.raises(tool.MarkerError, match="without '### END SOLUTION'"):
        tool.strip_code("### BEGIN SOLUTION\nx = 1")
    md = "Text.\n\n<!-- BEGIN SOLUTION -->\nThe answer.\n<!-- END SOLUTION -->\n\nMore."
    assert tool.strip_markdown(md) == "Text.\n\nMore."


@pytest.mark.parametrize("solution", SOLUTIONS, ids=lambda p: p.name)
def test_exercise_has_the_solutions_cells_ids_and_no_outputs(solution):
    sol = nbformat.read(solution, as_version=4)
    ex = nbformat.read(ROOT / "exercises" / solution.name, as_version=4)
    assert [c.id for c in ex.cells] == [c.id for c in sol.cells]
    assert [c.cell_type for c in ex.cells] == [c.cell_type for c in sol.cells]
    for cell in ex.cells:
        assert "SOLUTION" not in cell.source and "### EXERCISE" not in cell.source
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None
    assert set(ex.metadata) == {"kernelspec", "language_info"}


@pytest.mark.parametrize("solution", SOLUTIONS, ids=lambda p: p.name)
def test_solution_marks_its_answers_and_stores_a_pass_for_each_check(solution):
    nb = nbformat.read(solution, as_version=4)
    sources = [c.source for c in nb.cells if c.cell_type == "code"]
    assert any("### BEGIN SOLUTION" in s for s in sources)
    checks = [c for c in nb.cells if c.cell_type == "code" and CHECK_CALL.search(c.source)]
    assert checks, f"{solution.name} has no check(...) cell"
    for cell in checks:
        exercise_id = CHECK_CALL.search(cell.source).group(1)
        text = "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")
        assert text.startswith(f"PASS {exercise_id}: these checks passed:"), (solution.name, text)
        assert "nbval-ignore-output" not in cell.metadata.get("tags", [])


def test_the_ddp_exercise_script_differs_from_the_solution_only_inside_the_markers():
    tool = load_tool()
    solution = (ROOT / "solutions" / "05_ddp_train.py").read_text()
    exercise = (ROOT / "exercises" / "05_ddp_train.py").read_text()
    assert exercise == tool.strip_code(solution)
    assert "DistributedDataParallel" in solution and "DistributedDataParallel" not in exercise


@pytest.mark.slow
@pytest.mark.timeout(600)
@pytest.mark.parametrize("exercise", EXERCISES, ids=lambda p: p.name)
def test_exercise_runs_and_every_check_is_not_attempted_yet(exercise, monkeypatch):
    from tools.kernel_start import NotebookClient  # nbclient's, started again if it died at once

    nb = nbformat.read(exercise, as_version=4)
    # A fresh kernel on the CPU, as on a learner's laptop; it inherits this environment.
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "")
    monkeypatch.setenv("MPLBACKEND", "agg")
    monkeypatch.delenv("D2LGPU_DEVICE", raising=False)
    client = NotebookClient(
        nb,
        timeout=240,
        startup_timeout=300,  # a kernel on a busy 2-core machine can take over a minute to start
        kernel_name="python3",
        resources={"metadata": {"path": str(exercise.parent)}},
    )
    # Run All, as a learner would: GPU cells (%%requires_gpu) say they skip, nothing raises.
    with client.setup_kernel():
        for index, cell in enumerate(nb.cells):
            if cell.cell_type == "code":
                client.execute_cell(cell, index)  # raises CellExecutionError on an error
    checks = 0
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        text = "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")
        errors = [o for o in cell.outputs if o.output_type == "error"]
        assert not errors, cell.source
        for exercise_id in CHECK_CALL.findall(cell.source):
            checks += 1
            assert f"NOT ATTEMPTED YET {exercise_id}:" in text, (cell.source, text)
        assert "PASS" not in text and "FAIL" not in text, (cell.source, text)
        if cell.source.startswith("%%requires_gpu"):
            assert text.startswith("Skipped: this cell needs a CUDA GPU"), text
    assert checks >= 1
    assert os.environ.get("CUDA_VISIBLE_DEVICES") == ""
