"""The set-up: an idempotent install, safe copies, the lab launcher (the lock: test_lock.py)."""

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import lab  # noqa: E402
import setup_env  # noqa: E402


def test_install_is_skipped_when_the_pins_are_unchanged(tmp_path, monkeypatch):
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").write_text("")
    kernel = venv / "share" / "jupyter" / "kernels" / "d2lgpu"
    kernel.mkdir(parents=True)
    (kernel / "kernel.json").write_text("{}")
    calls = []
    monkeypatch.setattr(setup_env.subprocess, "run", lambda args, **kw: calls.append(args))

    assert setup_env.install(venv) is True  # no stamp yet: installs
    assert [c[1:3] for c in calls[:2]] == [["-m", "pip"], ["-m", "pip"]]
    assert calls[2][1:6] == ["-m", "ipykernel", "install", "--sys-prefix", "--name"]
    calls.clear()
    assert setup_env.install(venv) is False  # same pins: nothing to do
    assert calls == []
    (venv / ".d2lgpu-pins").write_text("an older lock\n")
    assert setup_env.install(venv) is True  # pins changed: installs again
    assert calls


def test_copy_exercises_never_overwrites_the_learners_work(tmp_path):
    src, dst = tmp_path / "exercises", tmp_path / "work"
    (src / "sub").mkdir(parents=True)
    (src / "01_a.ipynb").write_text("fresh 1")
    (src / "sub" / "train.py").write_text("fresh 2")
    (src / ".ipynb_checkpoints").mkdir()
    (src / ".ipynb_checkpoints" / "x.ipynb").write_text("junk")
    assert len(setup_env.copy_exercises(src, dst)) == 2
    (dst / "01_a.ipynb").write_text("my answer")
    (src / "02_b.ipynb").write_text("new exercise")
    new = setup_env.copy_exercises(src, dst)
    assert new == [dst / "02_b.ipynb"]
    assert (dst / "01_a.ipynb").read_text() == "my answer"
    assert not (dst / ".ipynb_checkpoints").exists()


def test_lab_binds_loopback_keeps_the_token_and_adds_allow_root_for_root():
    command = lab.lab_command(8899, as_root=True)
    assert "--ServerApp.ip=127.0.0.1" in command and "--allow-root" in command
    assert not any("token=" in part.lower() for part in command)  # token stays on
    assert "--LabApp.default_url=/lab/tree/notebooks" in command
    assert "--allow-root" not in lab.lab_command(8899, as_root=False)


def test_lab_picks_another_port_when_the_wanted_one_is_taken():
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        taken = s.getsockname()[1]
        assert not lab.port_is_free(taken)
        assert lab.pick_port(taken) != taken


def test_ci_runs_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text()
    assert re.search(r"^make test$", ci, re.M)
    assert "make test" in (ROOT / "README.md").read_text()
    assert "set -euo pipefail" in ci


@pytest.mark.parametrize("target", ["lab", "test", "check", "outputs", "exercises", "bench"])
def test_makefile_has_the_documented_targets(target):
    assert re.search(rf"^{target}:", (ROOT / "Makefile").read_text(), re.M)
