import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def gpu_check():
    spec = importlib.util.spec_from_file_location("gpu_check", ROOT / "tools" / "gpu_check.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_rerecording_some_notebooks_keeps_the_others(gpu_check, tmp_path):
    (tmp_path / "cells").mkdir()
    for name, nb in (("a", "notebooks/01_devices.ipynb"), ("b", "solutions/02_tensors.ipynb")):
        (tmp_path / "cells" / f"{name}.json").write_text(json.dumps({"notebook": nb, "cells": {}}))
    rows = [
        {"notebook": "notebooks/01_devices.ipynb", "seconds": 1},
        {"notebook": "solutions/02_tensors.ipynb", "seconds": 12.5, "cell_id": "x"},
    ]
    (tmp_path / "cell-runs.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    gpu_check.forget_runs_of(tmp_path, ["notebooks"])
    assert sorted(p.name for p in (tmp_path / "cells").iterdir()) == ["b.json"]
    assert [r["notebook"] for r in map(json.loads, (tmp_path / "cell-runs.jsonl").open())] == [
        "solutions/02_tensors.ipynb"
    ]
    assert gpu_check.slow_cells(tmp_path) == [rows[1]]
    gpu_check.forget_runs_of(tmp_path, ["solutions/02_tensors.ipynb"])
    assert list((tmp_path / "cells").iterdir()) == [] and gpu_check.slow_cells(tmp_path) == []


def test_the_summary_counts_failures_and_names_them(gpu_check, tmp_path):
    (tmp_path / "tests.xml").write_text(
        "<testsuites><testsuite>"
        '<testcase classname="tests.test_a" name="test_ok"/>'
        '<testcase classname="tests.test_a" name="test_bad"><failure message="x"/></testcase>'
        '<testcase classname="tests.test_b" name="test_skip"><skipped/></testcase>'
        '<testcase classname="tests.test_b" name="test_setup"><error message="y"/></testcase>'
        "</testsuite></testsuites>"
    )
    counts = gpu_check.junit_counts(tmp_path / "tests.xml")
    assert (counts["tests"], counts["failures"], counts["errors"], counts["skipped"]) == (
        4,
        1,
        1,
        1,
    )
    assert counts["failed"] == ["tests.test_a::test_bad", "tests.test_b::test_setup"]
    summary = gpu_check.write_summary(tmp_path, [{"name": "tests", "exit_code": 1, "seconds": 9.0}])
    text = summary.read_text()
    assert "| tests | 1 | 9 | 4 | 2 | 1 |" in text and "failed: `tests.test_a::test_bad`" in text
    assert "failed: `tests.test_b::test_setup`" in text
    assert gpu_check.junit_counts(tmp_path / "missing.xml") == {}


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--part", "tests,bogus"], "--part: unknown ['bogus']"),
        (["--workers", "0"], "--workers must be >= 1"),
        (["--notebooks", "no/such.ipynb"], "--notebooks: no such notebook"),
    ],
)
def test_bad_arguments_are_named(gpu_check, argv, message, capsys):
    with pytest.raises(SystemExit):
        gpu_check.main(argv)
    assert message in capsys.readouterr().err
