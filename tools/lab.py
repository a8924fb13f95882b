"""Start JupyterLab for the course: loopback only, token on, opened at chapter 1.

    .venv/bin/python tools/lab.py [--port 8888]

* binds 127.0.0.1 only: from another machine, use SSH port forwarding;
* keeps token authentication on (Jupyter prints the URL with its token);
* adds ``--allow-root`` by itself when run as root (containers, cloud GPUs);
* if the port is taken, picks the next free one and says so;
* opens the learner's copy of chapter 1 (``work/chapter_01_devices.ipynb``,
  made by ``make lab``), or the course's own when there is no copy.
"""

from __future__ import annotations

import argparse
import os
import socket
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


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
    raise SystemExit(f"ports {wanted}..{wanted + tries - 1} are all in use; pass --port N")


FIRST_CHAPTER = "01_devices.ipynb"


def start_page(root_dir: Path = ROOT) -> str:
    """Chapter 1, relative to ``root_dir``: the learner's copy in work/ if there is one."""
    mine = Path("work") / f"chapter_{FIRST_CHAPTER}"
    return (mine if (root_dir / mine).exists() else Path("notebooks") / FIRST_CHAPTER).as_posix()


def lab_command(port: int, *, as_root: bool, root_dir: Path = ROOT) -> list[str]:
    """The JupyterLab command line: loopback only, this port or fail, opened at chapter 1.

    No token option on purpose: Jupyter then generates a random token and
    prints the URL that carries it. The browser test runs this same command
    with a ``root_dir`` holding a copy of the course.
    """
    command = [
        sys.executable, "-m", "jupyterlab",
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        f"--ServerApp.root_dir={root_dir}",
        f"--LabApp.default_url=/lab/tree/{start_page(root_dir)}",
    ]  # fmt: skip
    if as_root:
        command.append("--allow-root")
    return command


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", 8888)))
    args = parser.parse_args(argv)
    if not 1 <= args.port <= 65535:
        parser.error(f"--port must be between 1 and 65535, got {args.port}")
    port = pick_port(args.port)
    if port != args.port:
        print(f"port {args.port} is in use; using {port} instead")
    as_root = hasattr(os, "geteuid") and os.geteuid() == 0
    if as_root:
        print("running as root: adding --allow-root")
    print(
        f"from another machine: ssh -N -L {port}:127.0.0.1:{port} you@this-host, "
        "then open the URL below (with its token) there"
    )
    print(f"JupyterLab opens {start_page()}: start there. Your copies are in work/.")
    command = lab_command(port, as_root=as_root)
    os.execv(command[0], command)


if __name__ == "__main__":
    sys.exit(main())
