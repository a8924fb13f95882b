"""A kernel that died before it answered is started again (tools/kernel_start.py), by nbval
through the root conftest.py and by the tests that run notebooks with nbclient."""

import atexit
import json
import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from tools.kernel_start import DIED, TRIES, died_before_answering, retrying

ROOT = Path(__file__).resolve().parents[1]


def starts(*outcomes):
    """A stand-in for a kernel start: each call takes the next outcome (raised if an error)."""
    calls = []

    def start(*args, **kwargs):
        calls.append((args, kwargs))
        outcome = outcomes[len(calls) - 1]
        if isinstance(outcome, BaseException):
            raise outcome
        return outcome

    return start, calls


def test_a_kernel_that_died_before_answering_is_started_again_with_the_same_arguments(capsys):
    start, calls = starts(RuntimeError(DIED), RuntimeError(DIED), "answered")
    assert retrying(start)("python3", timeout=5) == "answered"
    assert calls == [(("python3",), {"timeout": 5})] * 3
    said = capsys.readouterr().err
    assert f"try 1 of {TRIES}" in said and f"try 2 of {TRIES}" in said and "try 3" not in said


def test_a_kernel_that_dies_at_every_start_fails_after_the_last_try_with_its_error():
    start, calls = starts(*[RuntimeError(DIED)] * TRIES)
    with pytest.raises(RuntimeError, match=DIED):
        retrying(start)()
    assert len(calls) == TRIES
    once, calls = starts(RuntimeError(DIED))
    with pytest.raises(RuntimeError, match=DIED):
        retrying(once, tries=1)()
    assert len(calls) == 1


@pytest.mark.parametrize(
    "error",
    [
        RuntimeError("Kernel died while waiting for execute reply."),
        ValueError(DIED),
        TimeoutError(),
    ],
    ids=["died_in_a_cell", "not_a_runtime_error", "timed_out"],
)
def test_any_other_error_is_raised_at_once(error):
    start, calls = starts(error, "answered")
    with pytest.raises(type(error)):
        retrying(start)()
    assert len(calls) == 1
    assert died_before_answering(RuntimeError(f"x {DIED} y"))
    assert not died_before_answering(error)


def test_tries_below_one_is_refused_with_its_name():
    with pytest.raises(ValueError, match="tries must be at least 1, got 0"):
        retrying(lambda: None, tries=0)


def dying_kernel(tmp_path, deaths: int) -> dict:
    """A kernel spec ``dying`` under ``tmp_path``: its first ``deaths`` starts exit at once
    (as a kernel whose port was taken does), the next ones run ipykernel."""
    tmp_path.mkdir(exist_ok=True)
    count = tmp_path / "starts"
    launcher = tmp_path / "launch.py"
    launcher.write_text(
        "import os, sys\n"
        f"count = {str(count)!r}\n"
        "n = len(open(count).read()) if os.path.exists(count) else 0\n"
        "open(count, 'a').write('x')\n"
        f"if n < {deaths}:\n"
        "    sys.exit(1)\n"
        "from ipykernel import kernelapp\n"
        "kernelapp.launch_new_instance()\n"
    )
    spec = tmp_path / "jupyter" / "kernels" / "dying"
    spec.mkdir(parents=True)
    argv = [sys.executable, str(launcher), "-f", "{connection_file}"]
    (spec / "kernel.json").write_text(
        json.dumps({"argv": argv, "display_name": "dying", "language": "python"})
    )
    return {"JUPYTER_PATH": str(tmp_path / "jupyter"), "count": count}


@pytest.mark.slow  # a pytest with nbval in another process, and a kernel
def test_nbval_starts_a_kernel_that_died_before_answering_again(tmp_path):
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "dying", "display_name": "dying"}
    nb.cells = [nbformat.v4.new_code_cell("print(6 * 7)", outputs=[
        nbformat.v4.new_output("stream", name="stdout", text="42\n")], execution_count=1)]  # fmt: skip
    path = tmp_path / "tiny.ipynb"
    nbformat.write(nb, path)
    spec = dying_kernel(tmp_path, deaths=TRIES - 1)
    env = {**os.environ, "JUPYTER_PATH": spec["JUPYTER_PATH"]}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "conftest", "-p", "no:randomly", "-p", "no:xdist",
         "-p", "no:cacheprovider", "--nbval", "--nbval-kernel-name=dying", "-q", str(path)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0 and "1 passed" in done.stdout, done.stdout[-3000:] + done.stderr
    assert spec["count"].read_text() == "x" * TRIES  # died twice, answered the third time


def one_cell():
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("print(6 * 7)")]
    return nb


@pytest.mark.slow  # a kernel
def test_the_tests_notebook_client_starts_a_kernel_that_died_before_answering_again(
    tmp_path, monkeypatch
):
    from tools.kernel_start import NotebookClient

    spec = dying_kernel(tmp_path, deaths=TRIES - 1)
    monkeypatch.setenv("JUPYTER_PATH", spec["JUPYTER_PATH"])
    nb = one_cell()
    client = NotebookClient(nb, timeout=60, startup_timeout=120, kernel_name="dying")
    with client.setup_kernel(cwd=str(tmp_path)):  # as most tests run their cells
        client.execute_cell(nb.cells[0], 0)
    assert nb.cells[0].outputs[0].text == "42\n"
    assert spec["count"].read_text() == "x" * TRIES

    spec = dying_kernel(tmp_path / "always", deaths=TRIES)
    monkeypatch.setenv("JUPYTER_PATH", spec["JUPYTER_PATH"])
    nb = one_cell()
    client = NotebookClient(nb, timeout=60, startup_timeout=120, kernel_name="dying")
    with pytest.raises(RuntimeError, match=DIED):
        client.execute()
    atexit.unregister(client._cleanup_kernel)  # nbclient's, for a kernel that never started
    assert spec["count"].read_text() == "x" * TRIES and not nb.cells[0].outputs
