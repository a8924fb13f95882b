"""What `make lab` shows of Jupyter's own log: its warnings and errors, not its known noise.

``tools/lab.py`` starts JupyterLab with its log on stderr piped through :func:`relay`.
Every line is passed on, except these, which say nothing a learner can act on:

* Jupyter's URL block ("To access the server, open this file in a browser: file:///...
  Or copy and paste one of these URLs: ..."): the course prints its own box with the one
  URL to open, once the server answers; two URLs would leave a newcomer choosing;
* "Notebook chapters/... is not trusted", for every notebook opened: trust only decides
  whether Jupyter shows a notebook's stored HTML and JavaScript outputs before it is run;
* tornado's "The websocket_ping_timeout (...) cannot be longer than the
  websocket_ping_interval" and the line after it, which it sets itself;
* each kernel's "Kernel is running over TCP without encryption ... susceptible to
  eavesdropping": the first is replaced by :data:`TCP_NOTE`, once, which says what it means
  here; later ones are dropped.

Anything else, an error above all, reaches the terminal as Jupyter wrote it.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Iterator
from typing import TextIO

TCP_NOTE = (
    "make lab: each kernel talks to JupyterLab over this machine's loopback (127.0.0.1), "
    "unencrypted; Jupyter warns about it for every kernel. Only programs on this machine can "
    "reach it, and the lab itself needs its token. (Said once.)"
)

_LOG_LINE = re.compile(r"^\[[A-Z][^\]]*\]")  # "[W 2026-11-28 04:19:59.123 ServerApp] ..."
_URL_BLOCK_START = re.compile(r"^\[C [^\]]*ServerApp\]\s*$")
_URL_BLOCK_TEXT = ("To access the server",)
_NOT_TRUSTED = re.compile(r"Notebook .* is not trusted")
_PING = "websocket_ping_timeout"
_PING_FOLLOW = "Setting websocket_ping_timeout="
_TCP = "Kernel is running over TCP without encryption"


def keep(lines: Iterable[str]) -> Iterator[str]:
    """The lines of Jupyter's log worth a learner's eyes, in order (see the module docstring).

    ``lines`` keep their line ends; :data:`TCP_NOTE` is yielded with one. A critical
    message whose first line is empty is held until its first words show whether it is
    the URL block (dropped, with its indented lines) or anything else (passed on whole).
    """
    held: list[str] = []  # an empty "[C ... ServerApp]" line and blank lines after it
    dropping = False  # inside the URL block: its lines are blank or indented
    said_tcp = False
    for line in lines:
        line = line if line.endswith("\n") else line + "\n"
        text = line.rstrip("\n")
        continued = not text.strip() or text.startswith((" ", "\t"))
        if dropping and continued:
            continue
        dropping = False
        if held:
            if continued and not text.strip():
                held.append(line)
                continue
            if continued and _URL_BLOCK_TEXT[0] in text:
                held, dropping = [], True
                continue
            yield from held
            held = []
        if _URL_BLOCK_START.match(text):
            held = [line]
            continue
        if _URL_BLOCK_TEXT[0] in text and _LOG_LINE.match(text):
            dropping = True  # the block on its prefix's line
            continue
        if _NOT_TRUSTED.search(text) or _PING in text or text.startswith(_PING_FOLLOW):
            continue
        if _TCP in text:
            if not said_tcp:
                said_tcp = True
                yield TCP_NOTE + "\n"
            continue
        yield line
    yield from held


def relay(stream: TextIO, out: TextIO | None = None) -> None:
    """Copy ``stream`` (Jupyter's stderr) to ``out`` (stderr), filtered by :func:`keep`."""
    out = out if out is not None else sys.stderr
    for line in keep(stream):
        out.write(line)
        out.flush()
