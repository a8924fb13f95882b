"""tools/lab_log.py: what `make lab` shows of Jupyter's log, and what it leaves out."""

from __future__ import annotations

import io
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import lab_log  # noqa: E402

# Jupyter's log as `make lab` received it (tornado indents a message's later lines by 4).
URL_BLOCK = [
    "[C 2026-11-28 04:19:59.123 ServerApp] \n",
    "    \n",
    "    To access the server, open this file in a browser:\n",
    "        file:///root/.local/share/jupyter/runtime/jpserver-4242-open.html\n",
    "    Or copy and paste one of these URLs:\n",
    "        http://127.0.0.1:8888/lab?token=abc\n",
    "        http://127.0.0.1:8888/lab?token=abc\n",
]
TCP = (
    "[IPKernelApp] WARNING | Kernel is running over TCP without encryption. All communication "
    "(including code and outputs) is sent in plain text and is susceptible to eavesdropping.\n"
)
NOISE = [
    "[W 2026-11-28 04:20:01.000 ServerApp] Notebook chapters/01_devices.ipynb is not trusted\n",
    "[W 2026-11-28 04:20:02.000 ServerApp] The websocket_ping_timeout (90) cannot be longer "
    "than the websocket_ping_interval (30).\n",
    "    Setting websocket_ping_timeout=30\n",
]
ERROR = [
    "[E 2026-11-28 04:21:00.000 ServerApp] Uncaught exception GET /api/contents/x\n",
    "    Traceback (most recent call last):\n",
    '      File "x.py", line 1, in <module>\n',
    "    OSError: disk full\n",
]


def shown(lines):
    return list(lab_log.keep(lines))


def test_the_url_block_trust_and_ping_noise_are_dropped_and_errors_kept_whole():
    out = shown([*URL_BLOCK, *NOISE, *ERROR])
    assert out == ERROR
    assert not any("token=" in line or "file://" in line for line in out)


def test_the_kernels_tcp_warning_becomes_one_plain_note():
    out = shown([TCP, ERROR[0], TCP, TCP])
    assert out == [lab_log.TCP_NOTE + "\n", ERROR[0]]
    assert "127.0.0.1" in lab_log.TCP_NOTE and "token" in lab_log.TCP_NOTE


def test_another_critical_message_with_an_empty_first_line_is_passed_on_whole():
    message = [
        "[C 2026-11-28 04:19:59.123 ServerApp] \n",
        "    \n",
        "    ERROR: the Jupyter server could not be started because port 8888 is not available.\n",
        "[W 2026-11-28 04:20:00.000 ServerApp] a warning after it\n",
    ]
    assert shown(message) == message
    assert shown(message[:2]) == message[:2]  # a message cut short is not lost either


def test_the_url_block_on_its_prefix_line_is_dropped_too():
    block = [
        "[C 2026-11-28 04:19:59.123 ServerApp] To access the server, copy and paste one of these "
        "URLs:\n",
        "        http://127.0.0.1:8888/lab?token=abc\n",
        ERROR[0],
    ]
    assert shown(block) == [ERROR[0]]


def test_lines_keep_their_order_and_get_a_line_end():
    lines = ["[W 1] one\n", "plain line without end", "[W 2] two\n"]
    assert shown(lines) == ["[W 1] one\n", "plain line without end\n", "[W 2] two\n"]


def test_relay_copies_what_keep_keeps_to_the_terminal():
    out = io.StringIO()
    lab_log.relay(io.StringIO("".join([*URL_BLOCK, ERROR[0], TCP])), out)
    assert out.getvalue() == ERROR[0] + lab_log.TCP_NOTE + "\n"
