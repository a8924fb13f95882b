"""tools/lab.py, the launcher behind `make lab`: what it tells the learner, what it runs.

The command line itself (loopback, no token option, notebooks/, --allow-root)
is checked in test_setup.py; the browser test runs it for real.
"""

import socket
import sys
from pathlib import Path

import pytest

from d2lgpu.processes import free_port

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import lab  # noqa: E402


@pytest.fixture
def execv(monkeypatch):
    """Capture the command main() would exec instead of starting JupyterLab."""
    calls = []
    monkeypatch.setattr(lab.os, "execv", lambda path, argv: calls.append(list(argv)))
    return calls


def port_of(command):
    return int(next(a for a in command if a.startswith("--ServerApp.port=")).split("=")[1])


def test_a_taken_port_is_replaced_and_the_learner_is_told(execv, capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        busy = taken.getsockname()[1]
        lab.main(["--port", str(busy)])
    out = capsys.readouterr().out
    used = port_of(execv[0])
    assert used != busy
    assert f"port {busy} is in use; using {used} instead" in out
    # the SSH hint names the port actually used, not the one asked for
    assert f"ssh -N -L {used}:127.0.0.1:{used}" in out


def test_a_free_port_is_used_as_asked_without_a_message(execv, capsys, monkeypatch):
    free = free_port()
    monkeypatch.setenv("PORT", str(free))  # `PORT=9000 make lab`
    lab.main([])
    assert port_of(execv[0]) == free
    assert "in use" not in capsys.readouterr().out


def test_the_command_never_sets_or_empties_the_token(execv):
    free = free_port()
    lab.main(["--port", str(free)])
    command = " ".join(execv[0])
    assert "IdentityProvider.token" not in command and "ServerApp.token" not in command
    assert "--ServerApp.ip=127.0.0.1" in command


def test_root_gets_allow_root_and_is_told(execv, capsys, monkeypatch):
    monkeypatch.setattr(lab.os, "geteuid", lambda: 0)
    free = free_port()
    lab.main(["--port", str(free)])
    assert "--allow-root" in execv[0]
    assert "running as root: adding --allow-root" in capsys.readouterr().out


@pytest.mark.parametrize("port", ["0", "70000"])
def test_an_impossible_port_is_refused_with_a_message(port, execv, capsys):
    with pytest.raises(SystemExit):
        lab.main(["--port", port])
    assert "--port must be between 1 and 65535" in capsys.readouterr().err
    assert execv == []
