"""The set-up: an idempotent install, safe copies, the lab launcher (the lock: test_lock.py)."""

import json
import os
import re
import subprocess
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
    monkeypatch.setattr(setup_env, "run_with_heartbeat", lambda args, **kw: calls.append(args) or 0)

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
    monkeypatch.setattr(setup_env, "run_with_heartbeat", lambda args, **kw: calls.append(args) or 0)
    venv.mkdir()
    assert setup_env.install(venv) is True
    out = capsys.readouterr().out
    assert "about 5 GB" in out and "ready" in out
    pip = calls[0]
    assert "--quiet" not in pip and pip[pip.index("--progress-bar") + 1] == "on"  # progress shown
    assert setup_env.install(venv) is False
    assert capsys.readouterr().out == ""  # nothing happened: nothing said


def test_a_silent_pip_gets_a_line_saying_what_it_does(tmp_path, capfd):
    # a pip that prints, then is silent (as when it unpacks PyTorch), then prints again
    fake_pip = (
        "import sys, time\n"
        "print('Installing collected packages: torch, jupyterlab', flush=True)\n"
        "print('  Successfully uninstalled setuptools-65.5.0', flush=True)\n"
        "time.sleep(1.5)\n"
        "print('Successfully installed torch', flush=True)\n"
    )
    (tmp_path / "venv").mkdir()
    (tmp_path / "venv" / "big").write_bytes(b"x" * 2**20)
    code = setup_env.run_with_heartbeat(
        [sys.executable, "-c", fake_pip], cwd=tmp_path, venv_dir=tmp_path / "venv", every_s=0.4
    )
    out = capfd.readouterr().out
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "Installing collected packages: torch, jupyterlab"  # pip's own, first
    assert lines[-1] == "Successfully installed torch"
    beats = [line for line in lines if line.startswith("  ... ")]
    assert 2 <= len(beats) <= 4, out  # one per 0.4 s of silence, not one per poll
    # the last line was not "Installing ...", but pip is still unpacking since it said that
    assert "so far: pip is unpacking the packages" in beats[0]
    assert "GB in venv now" in beats[0]


def test_a_failing_pip_stops_the_install(tmp_path, monkeypatch):
    monkeypatch.setattr(setup_env, "ensure_venv", lambda v: v / "bin" / "python")
    monkeypatch.setattr(setup_env, "run_with_heartbeat", lambda args, **kw: 1)
    (tmp_path / "venv").mkdir()
    with pytest.raises(setup_env.subprocess.CalledProcessError):
        setup_env.install(tmp_path / "venv")
    assert not (tmp_path / "venv" / ".d2lgpu-pins").exists()  # no stamp: the next run tries again


def test_the_floor_is_pyprojects_torch_and_the_torchvision_it_came_with(tmp_path):
    assert setup_env.floor_versions() == ("2.11", "0.26")
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert '"torchvision>=0.26"' in pyproject  # the package's own range says the same
    (tmp_path / "pyproject.toml").write_text(pyproject.replace('"torch>=2.11"', '"torch>=2.12"'))
    assert setup_env.floor_versions(tmp_path) == ("2.12", "0.27")


@pytest.mark.parametrize("cpu_index", [True, False])
def test_the_floor_environment_is_the_lock_resolved_again_with_the_floors_torch(
    tmp_path, monkeypatch, capsys, cpu_index
):
    import lock

    seen = {}

    def compile_lock(output, *, extra_args=()):
        seen["start"] = output.read_text()
        constraint = Path(extra_args[extra_args.index("--constraint") + 1])
        seen["constraint"], seen["args"] = constraint.read_text(), list(extra_args)
        output.write_text("torch==2.11.0\n")

    runs = []
    monkeypatch.setattr(lock, "compile_lock", compile_lock)
    monkeypatch.setattr(setup_env, "reachable", lambda url: cpu_index)
    monkeypatch.setattr(setup_env.subprocess, "run", lambda args, **kw: runs.append(args))
    python = tmp_path / "bin" / "python"
    setup_env.install_floor(python, tmp_path)
    assert seen["start"] == lock.LOCK.read_text()  # uv keeps the lock's pins where they fit
    assert seen["constraint"] == "torch==2.11.*\ntorchvision==0.26.*\n"
    (install,) = runs
    assert install[-2:] == ["-r", str(tmp_path / "requirements-floor.txt")]
    assert install[install.index("--python") + 1] == str(python)
    backend = ["--torch-backend", "cpu"]
    for args in (seen["args"], install):
        assert (" ".join(backend) in " ".join(args)) is cpu_index
    said = capsys.readouterr().out
    assert ("CPU wheels" in said) is cpu_index and ("cannot be reached" in said) is not cpu_index


def test_the_floor_environment_has_its_own_stamp(tmp_path, monkeypatch):
    calls = []
    monkeypatch.setattr(setup_env, "ensure_venv", lambda v: v / "bin" / "python")
    monkeypatch.setattr(setup_env, "kernel_installed", lambda v: True)
    monkeypatch.setattr(setup_env.subprocess, "run", lambda args, **kw: calls.append(args))
    monkeypatch.setattr(setup_env, "run_with_heartbeat", lambda args, **kw: calls.append(args) or 0)
    monkeypatch.setattr(setup_env, "install_floor", lambda python, venv: calls.append("floor"))
    (tmp_path / "venv").mkdir()
    assert setup_env.install(tmp_path / "venv") is True
    assert "floor" not in calls
    assert setup_env.install(tmp_path / "venv", torch_floor=True) is True  # not the lock's torch
    assert "floor" in calls
    calls.clear()
    assert setup_env.install(tmp_path / "venv", torch_floor=True) is False
    assert calls == []


def test_jupyterlab_news_and_update_checks_are_off_in_the_environment(tmp_path):
    import json

    assert setup_env.write_lab_settings(tmp_path) is True
    path = tmp_path / "share" / "jupyter" / "lab" / "settings" / "overrides.json"
    settings = json.loads(path.read_text())["@jupyterlab/apputils-extension:notification"]
    assert settings == {"fetchNews": "false", "checkForUpdates": False}
    assert setup_env.write_lab_settings(tmp_path) is False  # already there: unchanged


def test_a_tests_lab_autosaves_as_often_as_asked_or_never():
    docs = "@jupyterlab/docmanager-extension:plugin"
    assert docs not in setup_env.lab_settings()  # JupyterLab's own: every 120 s
    assert setup_env.lab_settings(autosave_s=2)[docs] == {"autosaveInterval": 2}
    assert setup_env.lab_settings(autosave_s=0)[docs] == {"autosave": False}
    assert setup_env.lab_settings(autosave_s=0)["@jupyterlab/apputils-extension:notification"] == {
        "fetchNews": "false",
        "checkForUpdates": False,
    }  # the course's settings kept


def test_the_environment_python_is_where_each_os_puts_it(tmp_path):
    assert setup_env.venv_python(tmp_path, windows=True) == tmp_path / "Scripts" / "python.exe"
    assert setup_env.venv_python(tmp_path, windows=False) == tmp_path / "bin" / "python"


def test_lab_binds_loopback_keeps_the_token_and_adds_allow_root_for_root():
    command = lab.lab_command(8899, as_root=True)
    assert "--ServerApp.ip=127.0.0.1" in command and "--allow-root" in command
    assert not any("token=" in part.lower() for part in command)  # token stays on
    assert "--LabApp.default_url=/lab/tree/chapters/01_devices.ipynb" in command
    assert f"--ServerApp.root_dir={ROOT / 'work'}" in command  # the lab cannot reach the course
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


@pytest.mark.parametrize(
    "target", ["lab", "test", "test-floor", "check", "outputs", "exercises", "bench"]
)
def test_makefile_has_the_documented_targets(target):
    assert re.search(rf"^{target}:", (ROOT / "Makefile").read_text(), re.M)


@pytest.mark.slow
def test_make_env_prints_the_block_from_the_venv_or_says_to_set_up(tmp_path):
    venv = Path(sys.executable).parent.parent  # this environment stands in for .venv
    env = {k: v for k, v in os.environ.items() if k not in ("D2LGPU_DEVICE", "MAKEFLAGS")}
    run = subprocess.run(
        ["make", "--no-print-directory", "env", f"VENV={venv}"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[1] == "```text" and run.stdout.rstrip().endswith("```")
    assert f"interpreter           {venv}/bin/python" in run.stdout
    missing = subprocess.run(
        ["make", "--no-print-directory", "env", f"VENV={tmp_path / 'none'}"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert missing.returncode == 2 and missing.stdout == ""
    assert "run make setup (or make lab) first, then make env" in missing.stderr


def test_the_readme_and_chapter_1_say_make_env():
    readme = (ROOT / "README.md").read_text()
    assert re.search(r"^\| `make env` \| prints the course's commit", readme, re.M)
    reporting = readme.split("## Reporting a problem", 1)[1].split("\n## ", 1)[0]
    assert reporting.lstrip().startswith("Run `make env`")
    chapter = json.loads((ROOT / "notebooks" / "01_devices.ipynb").read_text())
    prose = "".join("".join(c["source"]) for c in chapter["cells"] if c["cell_type"] == "markdown")
    assert prose.count("`make env`") >= 2 and "python -m d2lgpu env" not in prose


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


def test_the_version_is_written_once_in_the_package():
    import tomllib
    from importlib.metadata import PackageNotFoundError, version

    import d2lgpu

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    attr = project["tool"]["setuptools"]["dynamic"]["version"]["attr"]
    assert attr == "d2lgpu.__version__"
    try:
        installed = version("d2lgpu")
    except PackageNotFoundError:
        pytest.skip(
            "d2lgpu is used from the checkout, not installed (no package metadata to compare "
            "with d2lgpu.__version__): `make setup` installs it"
        )
    assert installed == d2lgpu.__version__  # what pip installed, from that attribute


def test_make_check_type_checks_the_package_with_the_locked_mypy():
    import tomllib

    makefile = (ROOT / "Makefile").read_text()

    def recipe(target):
        return makefile.split(f"\n{target}:", 1)[1].split("\n\n", 1)[0]

    # make check runs mypy itself, or through check-static beside the tests
    check = recipe("check")
    if "check-static" in check:
        check += recipe("check-static")
    assert "$(CHECK_PY) -m mypy" in check
    mypy = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    assert mypy["files"] == ["d2lgpu"] and "strict" not in mypy
    assert re.search(r"^mypy==\S+", (ROOT / "requirements.lock").read_text(), re.M)
