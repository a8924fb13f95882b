"""Start JupyterLab for the course: loopback only, token on, over work/, opened at chapter 1.

    .venv/bin/python tools/lab.py [--port 8888] [--new]
    python3 tools/lab.py --check-only     # `make lab` runs this first, before any set-up

* its root is ``work/``, the learner's copies: nothing it opens or saves is a
  file git tracks, so ``git pull`` always applies;
* binds 127.0.0.1 only: from another machine, use SSH port forwarding;
* keeps token authentication on (Jupyter makes the token);
* adds ``--allow-root`` by itself when run as root (containers, cloud GPUs);
* if JupyterLab already runs over this ``work/``, prints its URL and starts
  no second one (``--new`` starts one anyway); if the port is taken, picks the
  next free one and says so;
* Jupyter logs warnings only, without the noise a learner cannot act on
  (``tools/lab_log.py``: its own URL block, "not trusted", the kernels'
  "without encryption", said once in plain words); once the server answers,
  the URL to open is printed last, alone, in a box;
* ``--check-only`` checks ``PORT`` and ``D2LGPU_DEVICE`` with the standard
  library alone, so a bad value stops ``make lab`` before a long set-up;
* after set-up (run with ``.venv``'s Python), checks ``D2LGPU_DEVICE`` against
  the devices torch sees here, in a fresh Python, and stops on one this machine
  lacks (``cuda:7`` with fewer GPUs) with the line ``make env`` prints.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import lab_log  # tools/, beside this file

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / "work"
FIRST_CHAPTER = "chapters/01_devices.ipynb"  # in work/
START_S = 120  # the longest JupyterLab may take to answer on a busy machine


class BadValue(ValueError):
    """A setting the learner gave that cannot work; the message says which values can."""


def parse_port(value: str, name: str) -> int:
    """``value`` as a port number; ``name`` is how the learner gave it (``PORT``, ``--port``)."""
    example = "PORT=9000 make lab" if name == "PORT" else "--port 9000"
    try:
        port = int(value)
    except ValueError:
        raise BadValue(f"{name}={value!r} is not a port number: use {example} (1-65535)") from None
    if not 1 <= port <= 65535:
        raise BadValue(f"{name}={value!r} is not a port number: use {example} (1-65535)")
    return port


def check_device_variable(environ=os.environ) -> None:
    """Check ``D2LGPU_DEVICE``'s spelling by the package's own rule, without importing torch."""
    value = environ.get("D2LGPU_DEVICE")
    if value is None:
        return
    path = ROOT / "d2lgpu" / "_device_names.py"
    spec = importlib.util.spec_from_file_location("d2lgpu_device_names", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    try:
        module.parse_device_name(value)
    except ValueError as error:
        raise BadValue(str(error)) from None


DEVICE_CHECK = """
import sys
from d2lgpu._device_names import DeviceNameError
from d2lgpu.devices import default_device
try:
    default_device()
except DeviceNameError as error:
    print(error.problem)
    sys.exit(3)
"""


def check_device_here(environ=os.environ, python: str = sys.executable) -> None:
    """Check ``D2LGPU_DEVICE`` against the devices torch sees, as ``make env`` does.

    It runs in a fresh ``python`` (the course's .venv), so that this process, which
    stays up while the lab runs, never initializes CUDA. Raises :class:`BadValue`
    with ``make env``'s line for the variable; a Python that cannot answer (no torch
    yet) is left to the lab's own errors.
    """
    value = environ.get("D2LGPU_DEVICE")
    if value is None or not value.strip():
        return
    done = subprocess.run(
        [python, "-c", DEVICE_CHECK],
        cwd=ROOT, env=dict(environ), capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    if done.returncode == 3:
        shown = value if value == value.strip() else repr(value)
        raise BadValue(f"D2LGPU_DEVICE  {shown}: {done.stdout.strip()}")


def port_is_free(port: int, host: str = "127.0.0.1") -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        try:
            s.bind((host, port))
        except OSError:
            return False
    return True


def pick_port(wanted: int, tries: int = 50) -> int:
    for port in range(wanted, wanted + tries):
        if port_is_free(port):
            return port
    raise SystemExit(f"ports {wanted}..{wanted + tries - 1} are all in use; use PORT=N make lab")


def lab_command(port: int, *, as_root: bool, root_dir: Path = WORK, browser: bool = True):
    """The JupyterLab command line: loopback only, this port or fail, over ``root_dir``.

    No token option on purpose: Jupyter then generates a random token. The
    browser test runs this same command with a ``root_dir`` of its own.
    """
    command = [
        sys.executable, "-m", "jupyterlab",
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        f"--ServerApp.root_dir={root_dir}",
        f"--LabApp.default_url=/lab/tree/{FIRST_CHAPTER}",
        "--ServerApp.log_level=WARN",  # the URL, not 20 lines of start-up log
        "--LabApp.log_level=WARN",
    ]  # fmt: skip
    if not browser:
        command.append("--ServerApp.open_browser=False")
    if as_root:
        command.append("--allow-root")
    return command


def running_servers(root_dir: Path = WORK) -> list[dict]:
    """The JupyterLab servers of this user that run over ``root_dir`` now."""
    from jupyter_server.serverapp import list_running_servers

    found = []
    for info in list_running_servers():
        with contextlib.suppress(OSError, KeyError):
            if Path(info["root_dir"]).resolve() == root_dir.resolve():
                found.append(info)
    return found


def server_url(info: dict, page: str = FIRST_CHAPTER) -> str:
    return f"{info['url'].rstrip('/')}/lab/tree/{page}?token={info['token']}"


def boxed(*lines: str) -> str:
    width = max(len(line) for line in lines)
    rule = "+" + "-" * (width + 2) + "+"
    return "\n".join([rule, *(f"| {line.ljust(width)} |" for line in lines), rule])


def answers(info: dict) -> bool:
    request = urllib.request.Request(
        f"{info['url'].rstrip('/')}/api/status", headers={"Authorization": f"token {info['token']}"}
    )
    try:
        with urllib.request.urlopen(request, timeout=5):
            return True
    except OSError:
        return False


def wait_until_served(process: subprocess.Popen, root_dir: Path, timeout_s: float = START_S):
    """The server's info once it answers; ``None`` if it exited or never answered."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline and process.poll() is None:
        for info in running_servers(root_dir):
            if info.get("pid") == process.pid and answers(info):
                return info
        time.sleep(0.5)
    return None


def has_browser() -> bool:
    import webbrowser

    try:
        webbrowser.get()
    except webbrowser.Error:
        return False
    return True


def serve(command: list[str]) -> int:
    """Run JupyterLab; print its URL in a box once it answers; return its exit code."""
    root_dir = Path(
        next(a for a in command if a.startswith("--ServerApp.root_dir=")).split("=", 1)[1]
    )
    # Jupyter's log (and its kernels') goes through lab_log: its warnings and errors, not its
    # known noise, nor its own URL block before the box below.
    process = subprocess.Popen(command, stderr=subprocess.PIPE, text=True, bufsize=1)
    relay = threading.Thread(target=lab_log.relay, args=(process.stderr,), daemon=True)
    relay.start()
    # Ctrl+C reaches JupyterLab too (same terminal): it asks whether to stop, and we wait.
    signal.signal(signal.SIGINT, lambda *_: None)
    signal.signal(signal.SIGTERM, lambda *_: process.terminate())
    info = wait_until_served(process, root_dir)
    if info is not None:
        lines = ["JupyterLab is ready. Open this URL in your browser:", server_url(info)]
        if os.environ.get("SSH_CONNECTION"):
            port = info["port"]
            lines.append(f"(from your computer first: ssh -N -L {port}:127.0.0.1:{port} you@host)")
        lines.append("Stop it with Ctrl+C here (twice), or File > Shut Down in the lab.")
        print("\n" + boxed(*lines), flush=True)
    elif process.poll() is None:
        print(f"JupyterLab has not answered within {START_S} s; it is still starting.")
    code = process.wait()
    relay.join(timeout=5)  # its last lines (the shutdown's) before the shell prompt
    return code


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", help="the port to ask for (default: $PORT, else 8888)")
    parser.add_argument(
        "--new", action="store_true", help="start a server even if one runs over work/ already"
    )
    parser.add_argument(
        "--work", type=Path, default=WORK, help="the folder to serve (default: work/)"
    )
    parser.add_argument(
        "--check-only",
        action="store_true",
        help="check PORT and D2LGPU_DEVICE, start nothing (no package needed)",
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        if args.port is not None:
            wanted = parse_port(args.port, "--port")
        else:
            wanted = parse_port(os.environ.get("PORT", "8888"), "PORT")
        check_device_variable()
    except BadValue as error:
        print(f"make lab: {error}", file=sys.stderr)
        return 2
    if args.check_only:
        return 0
    try:
        check_device_here()
    except BadValue as error:
        print(f"make lab: {error}", file=sys.stderr)
        return 2
    work = args.work.resolve()
    if not (work / FIRST_CHAPTER).exists():
        print(
            f"work/{FIRST_CHAPTER} is missing: run `make lab` "
            "(or python3 tools/setup_env.py --copy-work) to make your copies first",
            file=sys.stderr,
        )
        return 2
    running = [] if args.new else running_servers(work)
    if running:
        print(
            boxed(
                "JupyterLab is already running for this course. Open:",
                server_url(running[0]),
                "(to start a second one anyway: make lab NEW=1)",
            )
        )
        return 0
    port = pick_port(wanted)
    if port != wanted:
        print(f"port {wanted} is in use; using {port} instead")
    as_root = hasattr(os, "geteuid") and os.geteuid() == 0
    if as_root:
        print("running as root: adding --allow-root")
    print(f"starting JupyterLab over work/ (your copies), opened at work/{FIRST_CHAPTER} ...")
    return serve(lab_command(port, as_root=as_root, root_dir=work, browser=has_browser()))


if __name__ == "__main__":
    sys.exit(main())
