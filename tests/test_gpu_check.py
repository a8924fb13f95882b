"""``make gpu-check`` on the CPU: its plan (least-verified first), and calls on a fake GPU whose
units are short Python commands: results kept as each ends, ``--resume``, a time limit."""

import importlib.util
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import torch

from d2lgpu import references

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def gpu_check():
    spec = importlib.util.spec_from_file_location("gpu_check", ROOT / "tools" / "gpu_check.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def gpu_results(gpu_check):
    return sys.modules["gpu_results"]  # what gpu_check imported


@pytest.fixture(scope="module")
def gpu_units(gpu_check):
    return gpu_check.gpu_units


def test_rerecording_some_notebooks_keeps_the_others(gpu_results, tmp_path):
    (tmp_path / "cells").mkdir()
    for name, nb in (("a", "notebooks/01_devices.ipynb"), ("b", "solutions/02_tensors.ipynb")):
        (tmp_path / "cells" / f"{name}.json").write_text(json.dumps({"notebook": nb, "cells": {}}))
    rows = [
        {"notebook": "notebooks/01_devices.ipynb", "seconds": 1},
        {"notebook": "solutions/02_tensors.ipynb", "seconds": 12.5, "cell_id": "x"},
    ]
    (tmp_path / "cell-runs.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    gpu_results.forget_runs_of(tmp_path, ["notebooks"])
    assert sorted(p.name for p in (tmp_path / "cells").iterdir()) == ["b.json"]
    assert [r["notebook"] for r in map(json.loads, (tmp_path / "cell-runs.jsonl").open())] == [
        "solutions/02_tensors.ipynb"
    ]
    assert gpu_results.slow_cells(tmp_path) == [rows[1]]
    assert gpu_results.slow_cells(tmp_path, ["notebooks/01_devices.ipynb"]) == []
    gpu_results.forget_runs_of(tmp_path, ["solutions/02_tensors.ipynb"])
    assert list((tmp_path / "cells").iterdir()) == [] and gpu_results.slow_cells(tmp_path) == []


def test_the_summary_counts_failures_and_names_them(gpu_results, tmp_path):
    (tmp_path / "units").mkdir()
    (tmp_path / "units" / "tests-1.xml").write_text(
        "<testsuites><testsuite>"
        '<testcase classname="tests.test_a" name="test_ok"/>'
        '<testcase classname="tests.test_a" name="test_bad"><failure message="x"/></testcase>'
        '<testcase classname="tests.test_b" name="test_skip"><skipped/></testcase>'
        '<testcase classname="tests.test_b" name="test_setup"><error message="y"/></testcase>'
        "</testsuite></testsuites>"
    )
    counts = gpu_results.junit_counts(tmp_path / "units" / "tests-1.xml")
    assert (counts["tests"], counts["failures"], counts["errors"], counts["skipped"]) == (
        4,
        1,
        1,
        1,
    )
    assert counts["failed"] == ["tests.test_a::test_bad", "tests.test_b::test_setup"]
    run = {"name": "tests-1", "tier": 3, "status": "failed", "exit_code": 1, "seconds": 9.0}
    text = gpu_results.write_summary(tmp_path, [run]).read_text()
    assert "| tests-1 | 3 | failed | 1 | 9 | 4 | 2 | 1 |" in text
    assert "failed: `tests.test_a::test_bad`" in text
    assert "failed: `tests.test_b::test_setup`" in text
    assert gpu_results.junit_counts(tmp_path / "missing.xml") == {}
    (tmp_path / "cut.xml").write_text("<testsuites><testsu")  # a process killed mid-write
    assert gpu_results.junit_counts(tmp_path / "cut.xml") == {}


# --- The plan: least-verified first -----------------------------------------------------------


def _notebook(root, path, *cells):
    """Write a notebook of code cells ``(id, source, tags)``; sources as lists, as on disk."""
    nb = {
        "nbformat": 4,
        "nbformat_minor": 5,
        "metadata": {},
        "cells": [
            {
                "cell_type": "code",
                "id": cid,
                "metadata": {"tags": tags},
                "outputs": [],
                "execution_count": None,
                "source": source.splitlines(keepends=True),
            }
            for cid, source, tags in cells
        ],
    }
    (root / path).parent.mkdir(parents=True, exist_ok=True)
    (root / path).write_text(json.dumps(nb))


GPU = ["requires-gpu"]
SIZE = "import torch\nn = 4096 if torch.cuda.is_available() else 8\n"
BRANCH = "if torch.cuda.is_available():\n    assert n > 8\n"
PROVENANCE = dict(device="Fake GPU", torch="2.11.0", cuda="13.0", date="d", origin="a test")


@pytest.fixture
def course(tmp_path):
    """A small course: what each notebook's cells did on a GPU decides its tier."""
    root, results = tmp_path / "course", tmp_path / "results"
    for nb, gpu_cell in (("01_ok", "print(n)"), ("02_no_reference", "print(n + 1)")):
        gpu_cell = f"%%requires_gpu\n{gpu_cell}\n"
        _notebook(root, f"notebooks/{nb}.ipynb", ("s", SIZE, []), ("g", gpu_cell, GPU))
        # 01 has its reference; 02's was recorded with another size above it
        earlier = [SIZE] if nb == "01_ok" else ["import torch\nn = 2\n"]
        references.record_reference(
            results, f"notebooks/{nb}.ipynb", "g", gpu_cell, "4096\n", PROVENANCE, earlier=earlier
        )
    for nb in ("03_branch_changed", "04_failed", "05_branch_passed", "06_branch_legacy"):
        _notebook(root, f"notebooks/{nb}.ipynb", ("s", SIZE, []), ("b", BRANCH, []))
    key = references.cell_key(BRANCH, [SIZE])
    rows = [
        ("03_branch_changed", "passed", "an older key"),
        ("04_failed", "failed", key),
        ("05_branch_passed", "passed", key),
        ("06_branch_legacy", "passed", None),  # recorded before rows kept a key
    ]
    lines = [
        {"notebook": f"notebooks/{nb}.ipynb", "cell_id": "b", "outcome": outcome, "seconds": 1.0}
        | ({"key": k} if k else {})
        for nb, outcome, k in rows
    ]
    device = results / "Fake-GPU"
    (device / "cell-runs.jsonl").write_text("".join(json.dumps(r) + "\n" for r in lines))
    _notebook(root, "notebooks/07_two_gpus.ipynb", ("t", "print(1)\n", ["requires-2-gpus"]))
    _notebook(root, "notebooks/09_pipeline.ipynb", ("x", "x = 1\n", []))
    _notebook(root, "solutions/10_ddp.ipynb", ("x", "x = 1\n", []))
    _notebook(root, "solutions/01_ok.ipynb", ("x", "x = 1\n", []))
    _notebook(root, "exercises/01_ok.ipynb", ("x", "x = 1\n", []))
    _notebook(root, "exercises/09_pipeline.ipynb", ("x", "x = 1\n", []))
    tests = ("test_a", "test_b", "test_checks_ch08_x", "test_checks_ch09_x", "test_checks_ch10")
    for test in (*tests, "test_ranks"):
        (root / "tests").mkdir(exist_ok=True)
        (root / "tests" / f"{test}.py").write_text("")
    return root, results


def test_the_least_verified_run_first_then_chapters_9_and_10_then_the_rest(gpu_units, course):
    root, results = course
    units = gpu_units.plan(root, list(gpu_units.PARTS), ["notebooks", "solutions"], results, 1)
    assert [(u.tier, u.name) for u in units] == [
        (1, "notebooks_02_no_reference"),
        (1, "notebooks_03_branch_changed"),
        (1, "notebooks_04_failed"),
        (2, "notebooks_09_pipeline"),
        (2, "solutions_10_ddp"),
        (2, "tests-ch09-10"),
        (2, "exercises-ch09-10"),
        (3, "tests-timed"),  # test_checks_ch08_x: its checkers time the GPU, alone
        *[(3, f"tests-{i}") for i in (1, 2)],  # test_a, test_b: one file a group
        (3, "exercises"),
        (3, "notebooks_01_ok"),
        (3, "notebooks_05_branch_passed"),
        (3, "notebooks_06_branch_legacy"),
        (3, "notebooks_07_two_gpus"),  # needs 2 GPUs: skipped on one, not unverified
        (3, "solutions_01_ok"),
        (3, "bench"),
    ]
    named = {u.name: u for u in units}
    assert named["tests-ch09-10"].paths == [
        "tests/test_checks_ch09_x.py",
        "tests/test_checks_ch10.py",
        "tests/test_ranks.py",
    ]
    assert named["exercises-ch09-10"].paths == ["exercises/09_pipeline.ipynb"]
    assert named["tests-timed"].paths == ["tests/test_checks_ch08_x.py"]
    assert named["tests-timed"].alone and not named["tests-1"].alone
    assert named["notebooks_02_no_reference"].why == [
        "cell 1 (g): GPU cell with no reference for its current code"
    ]
    assert named["notebooks_04_failed"].why == ["cell 1 (b): failed on Fake-GPU"]
    assert "GPU branch" in named["notebooks_03_branch_changed"].why[0]


def test_more_gpus_more_cells_to_verify_and_the_parts_asked_for_only(gpu_units, course):
    root, results = course
    two = gpu_units.plan(root, ["notebooks"], ["notebooks/07_two_gpus.ipynb"], results, 2)
    assert [(u.tier, u.name) for u in two] == [(1, "notebooks_07_two_gpus")]
    units = gpu_units.plan(root, ["bench", "notebooks"], ["solutions"], results, 1)
    # chapters 9-10 before the rest; in tier 3 the parts in the order asked for
    assert [u.name for u in units] == ["solutions_10_ddp", "bench", "solutions_01_ok"]


def test_a_later_pass_of_a_failed_cell_with_its_current_key_verifies_it(gpu_units, course):
    root, results = course
    runs = results / "Other-GPU" / "cell-runs.jsonl"
    runs.parent.mkdir()
    key = references.cell_key(BRANCH, [SIZE])
    row = {"notebook": "notebooks/04_failed.ipynb", "cell_id": "b", "outcome": "passed"}
    runs.write_text(json.dumps(row | {"key": "old"}) + "\n")
    assert gpu_units.unverified_cells(root, "notebooks/04_failed.ipynb", results, 1)
    runs.write_text(json.dumps(row | {"key": key}) + "\n")
    assert gpu_units.unverified_cells(root, "notebooks/04_failed.ipynb", results, 1) == []


def test_expected_seconds_come_from_the_state_then_the_cells_then_a_default(gpu_units, tmp_path):
    nb = gpu_units.Unit("notebooks_01_a", "notebooks", 3, ["notebooks/01_a.ipynb"])
    ex = gpu_units.Unit("exercises", "tests", 3, ["exercises/01_a.ipynb"])
    assert gpu_units.expected_seconds(nb, {}, tmp_path) == gpu_units.DEFAULT_S["notebooks"]
    assert gpu_units.expected_seconds(ex, {}, tmp_path) == gpu_units.DEFAULT_S["exercises"]
    rows = [{"notebook": "notebooks/01_a.ipynb", "seconds": s} for s in (10.0, 30.0)]
    (tmp_path / "cell-runs.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert gpu_units.expected_seconds(nb, {}, tmp_path) == 1.5 * 40 + 20
    state = {"units": {"notebooks_01_a": {"status": "passed", "seconds": 8.0}}}
    assert gpu_units.expected_seconds(nb, state, tmp_path) == 1.25 * 8 + 5
    state["units"]["notebooks_01_a"] = {"status": "cut off", "seconds": 200.0}
    assert gpu_units.expected_seconds(nb, state, tmp_path) == 250.0  # more than it had


def test_each_unit_runs_as_its_part_runs_and_chapters_9_10_under_the_fork_server(
    gpu_check, gpu_units, tmp_path
):
    Unit = gpu_units.Unit
    tests = Unit("tests-ch09-10", "tests", 2, ["tests/test_ranks.py"])
    notebook = Unit("notebooks_01_a", "notebooks", 3, ["notebooks/01_a.ipynb"])
    command = gpu_check.unit_command(tests, tmp_path, 8)
    assert command[-5:] == ["-n", "8", "--dist", "loadfile", "tests/test_ranks.py"]
    assert f"--junitxml={tmp_path / 'units' / 'tests-ch09-10.xml'}" in command
    timed = Unit("tests-timed", "tests", 3, ["tests/test_checks_ch08.py"], alone=True)
    command = gpu_check.unit_command(timed, tmp_path, 8)
    assert "-n" not in command and command[-1] == "tests/test_checks_ch08.py"  # no workers
    command = gpu_check.unit_command(notebook, tmp_path, 8)
    assert "--nbval" in command and "-n" not in command and command[-1] == notebook.paths[0]
    assert gpu_check.unit_env(tests, tmp_path)["D2LGPU_RANKS_START"] == "forkserver"
    env = gpu_check.unit_env(notebook, tmp_path)
    assert env["D2LGPU_RECORD_DIR"] == str(tmp_path)
    assert env.get("D2LGPU_RANKS_START") == os.environ.get("D2LGPU_RANKS_START")  # as it was
    bench = gpu_check.unit_command(Unit("bench", "bench", 3, []), tmp_path, 8)
    assert bench[-3:] == ["bench", "--out", str(tmp_path / "bench")]


def test_a_dry_run_prints_the_plan_on_a_cpu_and_writes_nothing(
    gpu_check, course, monkeypatch, capsys
):
    root, results = course
    monkeypatch.setattr(gpu_check, "ROOT", root)
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    before = sorted(results.rglob("*"))
    assert gpu_check.main(["--dry-run", "--device", "Fake GPU", "--results", str(results)]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if line.startswith("--")]
    assert lines[:2] == [
        "-- tier 1: notebooks_02_no_reference, about 120 s",
        "-- tier 1: notebooks_03_branch_changed, about 22 s",  # its cells' 1 s: 1.5 x 1 + 20
    ]
    assert lines[-1].startswith("-- expected: tier 1 about ")
    assert sorted(results.rglob("*")) == before


# --- Calls on a fake GPU ----------------------------------------------------------------------

# A unit's fake command: says it ran, writes a JUnit file, prints, sleeps, exits with a code.
FAKE = """
import os, subprocess, sys, time
name, out, seconds, code = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4])
with open(os.path.join(out, "ran.txt"), "a") as f:
    f.write(name + "\\n")
case = '<failure message="x"/>' if code else ""
with open(os.path.join(out, "units", name + ".xml"), "w") as f:
    f.write(f'<testsuite><testcase classname="fake" name="{name}">{case}</testcase></testsuite>')
if len(sys.argv) > 5:  # a kernel: a process in a session of its own
    kernel = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"],
                              start_new_session=True)
    open(os.path.join(out, "kernel.pid"), "w").write(str(kernel.pid))
print("unit", name, "started", flush=True)
time.sleep(seconds)
sys.exit(code)
"""


@pytest.fixture
def fake_gpu(gpu_check, monkeypatch, tmp_path):
    """A call of ``gpu_check.main`` on a fake GPU: ``call(units, *argv)`` -> (exit code, out)."""
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "device_count", lambda: 1)
    monkeypatch.setattr(torch.cuda, "get_device_name", lambda *a: "Fake GPU")
    monkeypatch.setattr(gpu_check, "write_env", lambda out, s: (out / "env.txt").write_text("."))
    monkeypatch.setenv("D2LGPU_COMMIT", "c1")
    results = tmp_path / "results"
    out = results / "Fake-GPU"

    def command(unit, out, workers):
        seconds, code = unit.paths[0], unit.paths[1]
        return [sys.executable, "-c", FAKE, unit.name, str(out), seconds, code, *unit.paths[2:]]

    monkeypatch.setattr(gpu_check, "unit_command", command)

    def call(units, *argv):
        monkeypatch.setattr(gpu_check.gpu_units, "plan", lambda *a: units)
        code = gpu_check.main(["--results", str(results), *argv])
        return code, out

    call.out = out
    return call


def fake_unit(name, tier, seconds=0.0, code=0, *kernel):
    return sys.modules["gpu_units"].Unit(name, "tests", tier, [str(seconds), str(code), *kernel])


def ran(out):
    return (out / "ran.txt").read_text().split()


def test_a_unit_that_cannot_finish_in_time_waits_and_resume_runs_only_the_rest(
    fake_gpu, gpu_results, monkeypatch
):
    units = [fake_unit("a", 1), fake_unit("b", 2, code=1), fake_unit("c", 3)]
    fake_gpu.out.mkdir(parents=True)  # an earlier call timed a and b, not c (120 s expected)
    timed = {n: {"status": "passed", "seconds": 1.0, "commit": "c0"} for n in ("a", "b")}
    gpu_results.save_state(fake_gpu.out, {"units": timed})
    code, out = fake_gpu(units, "--time-limit", "40")
    assert code == 1 and ran(out) == ["a", "b"]  # b failed; c remains
    state = json.loads((out / gpu_results.STATE).read_text())["units"]
    assert {n: (u["status"], u["commit"]) for n, u in state.items()} == {
        "a": ("passed", "c1"),
        "b": ("failed", "c1"),
    }
    summary = (out / "gpu-check.md").read_text()
    assert "| a | 1 | passed | 0 |" in summary and "| b | 2 | failed | 1 |" in summary
    assert "- remains: 1 unit, about 120 s: `c`" in summary
    assert (out / "units" / "a.log").read_text() == "unit a started\n"

    code, out = fake_gpu(units, "--resume")  # a and b finished at this commit
    assert code == 0 and ran(out) == ["a", "b", "c"]
    summary = (out / "gpu-check.md").read_text()
    assert "finished earlier at this commit (--resume): 2 units: `a`, `b`" in summary.split("##")[1]

    monkeypatch.setenv("D2LGPU_COMMIT", "c2")  # another commit: nothing of it finished yet
    code, out = fake_gpu(units, "--resume")
    assert code == 1 and ran(out) == ["a", "b", "c"] * 2


def test_a_unit_running_at_the_limit_is_stopped_and_the_summary_says_what_remains(
    fake_gpu, gpu_check, gpu_results, monkeypatch
):
    psutil = pytest.importorskip("psutil")
    monkeypatch.setattr(sys.modules["gpu_unit_run"], "STOP_GRACE_S", 1.0)  # gpu_check's runner
    # The state says that "slow" takes a second: it starts, and the limit stops it.
    fake_gpu.out.mkdir(parents=True)
    gpu_results.save_state(
        fake_gpu.out, {"units": {"slow": {"status": "passed", "seconds": 1.0, "commit": "c0"}}}
    )
    units = [fake_unit("slow", 1, 300, 0, "kernel"), fake_unit("next", 3, 0)]
    started = time.monotonic()
    code, out = fake_gpu(units, "--time-limit", "30")
    assert code == 3 and ran(out) == ["slow"]
    assert time.monotonic() - started < 120  # stopped, not slept out
    saved = json.loads((out / gpu_results.STATE).read_text())["units"]["slow"]
    assert saved["status"] == "cut off" and saved["commit"] == "c1"
    assert (out / "units" / "slow.log").read_text().startswith("unit slow started")
    kernel = int((out / "kernel.pid").read_text())
    assert not psutil.pid_exists(kernel) or psutil.Process(kernel).status() == "zombie"
    summary = (out / "gpu-check.md").read_text().split("\n\n## ")[0]
    assert "limit 30 s" in summary and "| slow | 1 | cut off |" in summary
    assert "cut off: `slow` after " in summary
    assert "- remains: 1 unit," in summary and "`next`" in summary


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--part", "tests,bogus"], "--part: unknown ['bogus']; allowed: tests, notebooks, bench"),
        (["--part", ","], "--part: unknown"),
        (["--workers", "0"], "--workers must be >= 1"),
        (["--notebooks", "no/such.ipynb"], "--notebooks: no such notebook"),
        (["--time-limit", "-5"], "--time-limit must be a number of seconds above 20"),
        (["--time-limit", "ten"], "--time-limit: invalid float value: 'ten'"),
        (["--device", "NVIDIA H200"], "--device: only with --dry-run"),
    ],
)
def test_bad_arguments_are_named(gpu_check, argv, message, capsys):
    with pytest.raises(SystemExit):
        gpu_check.main(argv)
    assert message in capsys.readouterr().err


def test_resume_without_a_state_says_where_it_looked(fake_gpu, capsys):
    with pytest.raises(SystemExit):
        fake_gpu([], "--resume")
    err = capsys.readouterr().err
    assert "--resume: no gpu-check-state.json in " in err and "Fake-GPU" in err


def test_without_a_gpu_it_says_so_and_runs_nothing(gpu_check, monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    assert gpu_check.main(["--results", str(tmp_path)]) == 2
    assert "needs a CUDA GPU" in capsys.readouterr().out and not any(tmp_path.iterdir())


@pytest.mark.slow
def test_a_call_sent_sigterm_stops_its_unit_and_still_writes_the_summary(tmp_path):
    # A machine being taken back: the call gets SIGTERM while a unit runs.
    script = f"""
import sys, torch
torch.cuda.is_available = lambda: True
torch.cuda.device_count = lambda: 1
torch.cuda.get_device_name = lambda *a: "Fake GPU"
sys.path.insert(0, {str(ROOT / "tools")!r})
import gpu_check, gpu_units
FAKE = {FAKE!r}
gpu_check.write_env = lambda *a: None
gpu_check.unit_command = lambda u, out, w: [sys.executable, "-c", FAKE, u.name, str(out), "300", "0"]
gpu_units.plan = lambda *a: [gpu_units.Unit("long", "tests", 1, [])]
sys.exit(gpu_check.main(["--results", {str(tmp_path)!r}]))
"""
    env = dict(os.environ, D2LGPU_COMMIT="c1")
    call = subprocess.Popen(
        [sys.executable, "-c", script],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    log = tmp_path / "Fake-GPU" / "units" / "long.log"
    deadline = time.monotonic() + 60
    while not (log.exists() and log.read_text()) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert log.read_text() == "unit long started\n"  # the log is written as the unit runs
    call.send_signal(signal.SIGTERM)
    output, _ = call.communicate(timeout=120)
    assert call.returncode == 3, output
    summary = (tmp_path / "Fake-GPU" / "gpu-check.md").read_text()
    assert "| long | 1 | cut off |" in summary
