"""The set-up: an idempotent install, safe copies, the lab launcher (the lock: test_lock.py)."""

import re
import shutil
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


def test_a_second_install_with_the_same_pins_prints_nothing(tmp_path, monkeypatch, capsys):
    venv = tmp_path / "venv"
    calls = []
    monkeypatch.setattr(setup_env, "ensure_venv", lambda v: v / "bin" / "python")
    monkeypatch.setattr(setup_env, "kernel_installed", lambda v: True)
    monkeypatch.setattr(setup_env.subprocess, "run", lambda args, **kw: calls.append(args))
    venv.mkdir()
    assert setup_env.install(venv) is True
    out = capsys.readouterr().out
    assert "about 5 GB" in out and "ready" in out
    pip = calls[0]
    assert "--quiet" not in pip and pip[pip.index("--progress-bar") + 1] == "on"  # progress shown
    assert setup_env.install(venv) is False
    assert capsys.readouterr().out == ""  # nothing happened: nothing said


def test_jupyterlab_news_and_update_checks_are_off_in_the_environment(tmp_path):
    import json

    assert setup_env.write_lab_settings(tmp_path) is True
    path = tmp_path / "share" / "jupyter" / "lab" / "settings" / "overrides.json"
    settings = json.loads(path.read_text())["@jupyterlab/apputils-extension:notification"]
    assert settings == {"fetchNews": "false", "checkForUpdates": False}
    assert setup_env.write_lab_settings(tmp_path) is False  # already there: unchanged


def test_the_environment_python_is_where_each_os_puts_it(tmp_path):
    assert setup_env.venv_python(tmp_path, windows=True) == tmp_path / "Scripts" / "python.exe"
    assert setup_env.venv_python(tmp_path, windows=False) == tmp_path / "bin" / "python"


def make_course(root):
    for rel, text in {
        "notebooks/01_devices.ipynb": "chapter 1 v1",
        "notebooks/02_tensors.ipynb": "chapter 2 v1",
        "exercises/01_devices.ipynb": "exercise 1 v1",
        "exercises/05_ddp_train.py": "script v1",
        "exercises/.ipynb_checkpoints/x.ipynb": "junk",
    }.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)


def test_sync_work_copies_chapters_and_exercises_and_says_so(tmp_path):
    make_course(tmp_path)
    outcome = setup_env.sync_work(tmp_path)
    work = tmp_path / "work"
    assert sorted(outcome["copied"]) == [
        "01_devices.ipynb", "05_ddp_train.py", "chapter_01_devices.ipynb", "chapter_02_tensors.ipynb"
    ]  # fmt: skip
    assert (work / "chapter_02_tensors.ipynb").read_text() == "chapter 2 v1"
    assert (work / "01_devices.ipynb").read_text() == "exercise 1 v1"
    assert not (work / ".ipynb_checkpoints").exists()
    assert setup_env.describe(outcome, tmp_path) == [
        "work/: copied 2 chapters, 2 exercise files for you to edit and save"
    ]
    again = setup_env.sync_work(tmp_path)
    assert setup_env.describe(again, tmp_path) == []  # nothing new: quiet
    assert len(again["kept"]) == 4


def test_sync_work_updates_untouched_copies_and_keeps_changed_ones(tmp_path):
    make_course(tmp_path)
    work = tmp_path / "work"
    setup_env.sync_work(tmp_path)
    (work / "chapter_01_devices.ipynb").write_text("my run of chapter 1")  # saved by the learner
    (work / "01_devices.ipynb").write_text("my answers")
    (tmp_path / "notebooks" / "01_devices.ipynb").write_text("chapter 1 v2")  # the course moves
    (tmp_path / "notebooks" / "02_tensors.ipynb").write_text("chapter 2 v2")
    (tmp_path / "exercises" / "06_new.ipynb").write_text("a new exercise")
    outcome = setup_env.sync_work(tmp_path)
    assert (work / "chapter_01_devices.ipynb").read_text() == "my run of chapter 1"
    assert (work / "01_devices.ipynb").read_text() == "my answers"
    assert (work / "chapter_02_tensors.ipynb").read_text() == "chapter 2 v2"
    assert (work / "06_new.ipynb").read_text() == "a new exercise"
    lines = setup_env.describe(outcome, tmp_path)
    assert lines[0] == (
        "work/: copied 1 exercise file for you to edit and save; "
        "your 3 other copies are kept as they are"
    )
    assert "work/chapter_02_tensors.ipynb: updated to the course's new version" in lines[1]
    assert lines[2].startswith(
        "work/chapter_01_devices.ipynb: the course's version (notebooks/01_devices.ipynb) "
        "is newer; yours is kept."
    )
    # The learner renames their copy to take the new version: a fresh copy, theirs intact.
    (work / "chapter_01_devices.ipynb").rename(work / "my_chapter_01.ipynb")
    assert setup_env.sync_work(tmp_path)["copied"] == ["chapter_01_devices.ipynb"]
    assert (work / "chapter_01_devices.ipynb").read_text() == "chapter 1 v2"
    assert (work / "my_chapter_01.ipynb").read_text() == "my run of chapter 1"


def test_copies_from_before_the_record_are_the_learners(tmp_path):
    make_course(tmp_path)
    work = tmp_path / "work"
    work.mkdir()
    (work / "01_devices.ipynb").write_text("answers made by an older make lab")
    outcome = setup_env.sync_work(tmp_path)
    assert "01_devices.ipynb" in outcome["kept"]
    assert (work / "01_devices.ipynb").read_text() == "answers made by an older make lab"
    (tmp_path / "exercises" / "01_devices.ipynb").write_text("exercise 1 v2")
    assert setup_env.sync_work(tmp_path)["newer"] == ["01_devices.ipynb"]
    assert (work / "01_devices.ipynb").read_text() == "answers made by an older make lab"


def git(cwd, *args):
    import subprocess

    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t", "PATH": "/usr/bin:/bin", "HOME": str(cwd)}  # fmt: skip
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, env=env)
    assert done.returncode == 0, f"git {' '.join(args)}: {done.stderr}"
    return done.stdout


def run_setup_copy(clone):
    """What `make lab` runs after the install: the clone's own tools/setup_env.py copy step."""
    import subprocess

    code = (
        "import sys; sys.path.insert(0, 'tools'); import setup_env\n"
        "print('\\n'.join(setup_env.describe(setup_env.sync_work())))"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=clone, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_saved_chapter_survives_a_course_update(tmp_path):
    course, clone = tmp_path / "course", tmp_path / "learner"
    course.mkdir()
    make_course(course)
    (course / "tools").mkdir()
    shutil.copy(ROOT / "tools" / "setup_env.py", course / "tools")
    shutil.copy(ROOT / ".gitignore", course)
    git(course, "init", "-q", "-b", "main")
    git(course, "add", "-A")
    git(course, "commit", "-q", "-m", "v1")
    git(tmp_path, "clone", "-q", str(course), str(clone))

    assert "copied 2 chapters" in run_setup_copy(clone)
    saved = clone / "work" / "chapter_01_devices.ipynb"
    saved.write_text("chapter 1 after Run All and Ctrl+S")  # the learner's saved chapter
    assert git(clone, "status", "--porcelain") == ""  # work/ is the learner's: git sees nothing

    (course / "notebooks" / "01_devices.ipynb").write_text("chapter 1 v2")
    (course / "notebooks" / "02_tensors.ipynb").write_text("chapter 2 v2")
    git(course, "commit", "-q", "-am", "v2")
    git(clone, "pull", "-q", "--ff-only")  # the update: no collision with saved work

    out = run_setup_copy(clone)
    assert saved.read_text() == "chapter 1 after Run All and Ctrl+S"  # nothing lost
    assert "work/chapter_01_devices.ipynb: the course's version" in out and "yours is kept" in out
    assert (clone / "work" / "chapter_02_tensors.ipynb").read_text() == "chapter 2 v2"
    assert (clone / "notebooks" / "01_devices.ipynb").read_text() == "chapter 1 v2"


def test_lab_binds_loopback_keeps_the_token_and_adds_allow_root_for_root():
    command = lab.lab_command(8899, as_root=True)
    assert "--ServerApp.ip=127.0.0.1" in command and "--allow-root" in command
    assert not any("token=" in part.lower() for part in command)  # token stays on
    assert "--LabApp.default_url=/lab/tree/work/chapter_01_devices.ipynb" in command or (
        "--LabApp.default_url=/lab/tree/notebooks/01_devices.ipynb" in command
    )
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


def test_the_readme_commands_without_make_are_the_ones_make_runs():
    readme = (ROOT / "README.md").read_text()
    (block,) = re.findall(r"```powershell\n(.*?)```", readme, re.S)
    setup_line, lab_line = block.strip().splitlines()
    makefile = (ROOT / "Makefile").read_text()
    # make lab: setup_env.py with the same flag, then tools/lab.py with the venv's Python
    flag = setup_line.split("tools\\setup_env.py", 1)[1].split()
    assert flag == ["--copy-work"] and "tools/setup_env.py --venv $(VENV) --copy-work" in makefile
    assert lab_line.endswith("tools\\lab.py") and "$(VPY) tools/lab.py" in makefile
    assert setup_env.build_parser().parse_args(flag).copy_work is True  # the script's own flag
