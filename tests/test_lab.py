"""tools/lab.py, the launcher behind `make lab`: what it tells the learner, what it runs.

The command line itself (loopback, no token option, work/ as the root, --allow-root) is
checked in test_setup.py; the browser test runs it for real.
"""

import socket
import subprocess
import sys
from pathlib import Path

import pytest

from d2lgpu.processes import free_port

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import lab  # noqa: E402


@pytest.fixture
def served(monkeypatch, tmp_path):
    """Capture the command main() would serve, over a work/ of its own with no server in it."""
    work = tmp_path / "work"
    (work / "chapters").mkdir(parents=True)
    (work / lab.FIRST_CHAPTER).write_text("{}")
    monkeypatch.setattr(lab, "WORK", work)
    monkeypatch.setattr(lab, "running_servers", lambda root_dir=None: [])
    monkeypatch.delenv("PORT", raising=False)
    monkeypatch.delenv("D2LGPU_DEVICE", raising=False)
    calls = []
    monkeypatch.setattr(lab, "serve", lambda command: calls.append(list(command)) or 0)
    return calls


def port_of(command):
    return int(next(a for a in command if a.startswith("--ServerApp.port=")).split("=")[1])


def test_a_taken_port_is_replaced_and_the_learner_is_told(served, capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        busy = taken.getsockname()[1]
        assert lab.main(["--port", str(busy)]) == 0
    out = capsys.readouterr().out
    used = port_of(served[0])
    assert used != busy
    assert f"port {busy} is in use; using {used} instead" in out


def test_a_free_port_is_used_as_asked_without_a_message(served, capsys, monkeypatch):
    free = free_port()
    monkeypatch.setenv("PORT", str(free))  # `PORT=9000 make lab`
    lab.main([])
    assert port_of(served[0]) == free
    assert "in use" not in capsys.readouterr().out


def test_the_command_never_sets_or_empties_the_token(served):
    lab.main(["--port", str(free_port())])
    command = " ".join(served[0])
    assert "IdentityProvider.token" not in command and "ServerApp.token" not in command
    assert "--ServerApp.ip=127.0.0.1" in command
    assert f"--ServerApp.root_dir={lab.WORK}" in command  # the lab cannot open the course's files


def test_root_gets_allow_root_and_is_told(served, capsys, monkeypatch):
    monkeypatch.setattr(lab.os, "geteuid", lambda: 0)
    lab.main(["--port", str(free_port())])
    assert "--allow-root" in served[0]
    assert "running as root: adding --allow-root" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("env", "args", "message"),
    [
        ({"PORT": "abc"}, [], "PORT='abc' is not a port number: use PORT=9000 make lab (1-65535)"),
        ({"PORT": "0"}, [], "PORT='0' is not a port number"),
        ({"PORT": "70000"}, [], "PORT='70000' is not a port number"),
        ({}, ["--port", "-5"], "--port='-5' is not a port number: use --port 9000 (1-65535)"),
        ({"D2LGPU_DEVICE": "banana"}, [], "D2LGPU_DEVICE"),
        ({"D2LGPU_DEVICE": "cuda:x"}, ["--check-only"], "mps"),  # the allowed values named
    ],
)
def test_a_bad_setting_is_refused_in_one_line_before_anything_starts(
    env, args, message, served, capsys, monkeypatch
):
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert lab.main(args) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert served == []


@pytest.mark.slow
@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("cuda:7", "asks for GPU 7, but this machine has 0 GPU(s) visible"),
        ("cuda", "asks for GPU 0, but this machine has 0 GPU(s) visible"),
        (" CUDA:1", "asks for GPU 1, but this machine has 0 GPU(s) visible"),
    ],
)
def test_after_set_up_a_device_this_machine_lacks_stops_it_with_the_env_line(
    value, problem, served, capsys, monkeypatch
):
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "")  # no GPU here, whatever the machine has
    monkeypatch.setenv("D2LGPU_DEVICE", value)
    assert lab.main([]) == 2
    err = capsys.readouterr().err
    shown = value if value == value.strip() else repr(value)
    # the line `make env` prints for the variable, after "make lab: "
    assert err == (
        f"make lab: D2LGPU_DEVICE  {shown}: {problem}; unset D2LGPU_DEVICE or set it to 'cpu'\n"
    )
    assert served == []


@pytest.mark.slow
@pytest.mark.parametrize("value", ["cpu", " ", "CPU "])
def test_after_set_up_a_device_this_machine_has_starts_the_lab(value, served, monkeypatch):
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "")
    monkeypatch.setenv("D2LGPU_DEVICE", value)
    assert lab.main([]) == 0 and len(served) == 1


def test_the_device_check_stops_only_on_a_device_this_machine_lacks(tmp_path):
    python = tmp_path / "python"  # stands in for .venv's Python: what the fresh check says
    environ = {"D2LGPU_DEVICE": "cuda:7", "PATH": "/usr/bin:/bin"}
    python.write_text("#!/bin/sh\necho 'asks for GPU 7, but no GPU'\nexit 3\n")
    python.chmod(0o755)
    with pytest.raises(lab.BadValue, match=r"^D2LGPU_DEVICE  cuda:7: asks for GPU 7, but no GPU$"):
        lab.check_device_here(environ, python=str(python))
    python.write_text("#!/bin/sh\necho 'No module named torch' >&2\nexit 1\n")
    assert lab.check_device_here(environ, python=str(python)) is None  # left to the lab
    assert lab.check_device_here({"D2LGPU_DEVICE": " "}, python="no-such-python") is None


def test_check_only_starts_nothing_and_needs_no_package(tmp_path):
    # `make lab` runs it with the system Python, before .venv exists: no torch, no jupyter
    code = "import sys; sys.modules['torch'] = None; sys.modules['jupyter_server'] = None\n"
    code += f"sys.path.insert(0, {str(ROOT / 'tools')!r}); import lab\n"
    code += "sys.exit(lab.main(['--check-only']))"
    for env, expected in [({"PORT": "9001", "D2LGPU_DEVICE": "cuda:1"}, 0), ({"PORT": "x"}, 2)]:
        done = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd=tmp_path
        )
        assert done.returncode == expected, done.stderr
        assert done.stdout == ""


def test_a_running_server_over_work_is_reused(served, capsys, monkeypatch):
    info = {"url": "http://127.0.0.1:8890/", "token": "abc123", "port": 8890, "pid": 1}
    monkeypatch.setattr(lab, "running_servers", lambda root_dir=None: [info])
    assert lab.main([]) == 0
    out = capsys.readouterr().out
    assert "JupyterLab is already running for this course" in out
    assert "http://127.0.0.1:8890/lab/tree/chapters/01_devices.ipynb?token=abc123" in out
    assert served == []  # no second server
    lab.main(["--new"])  # unless asked: make lab NEW=1
    assert len(served) == 1


def test_running_servers_are_those_over_this_work_folder(tmp_path, monkeypatch):
    serverapp = pytest.importorskip(
        "jupyter_server.serverapp", reason="requires jupyter_server (`make setup` installs it)"
    )

    mine, other = tmp_path / "work", tmp_path / "other"
    mine.mkdir()
    other.mkdir()
    listed = [{"root_dir": str(other), "pid": 1}, {"root_dir": str(mine), "pid": 2}, {"pid": 3}]
    monkeypatch.setattr(serverapp, "list_running_servers", lambda: iter(listed))
    assert [s["pid"] for s in lab.running_servers(mine)] == [2]


def test_without_copies_the_learner_is_told_to_make_them(served, capsys, monkeypatch):
    (lab.WORK / lab.FIRST_CHAPTER).unlink()
    assert lab.main(["--port", str(free_port())]) == 2
    assert "make lab" in capsys.readouterr().err
    assert served == []


def test_the_url_box_holds_the_url_alone_on_its_line():
    box = lab.boxed("JupyterLab is ready. Open this URL in your browser:", "http://x/?token=t")
    lines = box.splitlines()
    assert lines[0] == lines[-1] and set(lines[0]) == {"+", "-"}
    assert any(line.strip("| ").strip() == "http://x/?token=t" for line in lines)
    assert len({len(line) for line in lines}) == 1


@pytest.mark.timeout(300)
def test_make_lab_prints_the_url_last_in_a_box_and_a_second_run_finds_the_server(tmp_path):
    for module in ("jupyter_server", "jupyterlab"):  # what lab.py runs, in this Python
        pytest.importorskip(module, reason=f"requires {module} (`make setup` installs it)")
    import os
    import signal
    import threading
    import time

    work = tmp_path / "work"
    (work / "chapters").mkdir(parents=True)
    (work / lab.FIRST_CHAPTER).write_text(
        '{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}'
    )
    env = {
        k: v for k, v in os.environ.items() if k not in ("PORT", "D2LGPU_DEVICE", "SSH_CONNECTION")
    }
    for var, folder in [("JUPYTER_RUNTIME_DIR", "runtime"), ("JUPYTER_CONFIG_DIR", "config")]:
        env[var] = str(tmp_path / folder)
    env["BROWSER"] = "true"  # a browser that opens nothing
    command = [sys.executable, str(ROOT / "tools" / "lab.py"), "--work", str(work)]
    first = subprocess.Popen(
        [*command, "--port", str(free_port())],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(first.stdout), daemon=True)
    reader.start()
    try:
        deadline = time.monotonic() + 180
        while not any(line.startswith("| http") for line in lines):
            assert first.poll() is None, "".join(lines)
            assert time.monotonic() < deadline, "no URL within 180 s:\n" + "".join(lines)
            time.sleep(0.5)
        time.sleep(3)  # anything Jupyter still had to say would come now
        shown = [line.rstrip("\n") for line in lines if line.strip()]
        url_line = next(i for i, line in enumerate(shown) if line.startswith("| http"))
        assert shown[url_line - 2].startswith("+--") and shown[-1].startswith("+--"), shown
        assert all(line.startswith("|") for line in shown[url_line - 1 : -1]), shown  # last, boxed
        url = shown[url_line].strip("| ").strip()
        assert url.startswith("http://127.0.0.1:") and "/lab/tree/chapters/01_devices.ipynb" in url
        assert not any(line.startswith("[I ") for line in shown), shown  # warnings only
        # Jupyter's own URL block is not shown: one URL, the course's
        assert not any("To access the server" in line or "jpserver-" in line for line in shown)
        assert sum("token=" in line for line in shown) == 1, shown

        second = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
        assert second.returncode == 0, second.stderr
        assert "JupyterLab is already running for this course" in second.stdout
        assert url in second.stdout
    finally:
        first.send_signal(signal.SIGTERM)  # lab.py passes it on; Jupyter stops its kernels
        try:
            first.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(first.pid, signal.SIGKILL)
            first.wait()
