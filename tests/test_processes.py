"""d2lgpu.processes: find a job's processes by their mark, stop them gently, then surely."""

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from ddp_helpers.procs import TAG

from d2lgpu import processes as P

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="requires Linux")

# Sleeps; with "ignore-term" it survives SIGTERM; with "child" it starts a marked child too,
# in a session of its own (as torchrun's workers are), which with "stubborn-child" survives
# SIGTERM as well.
SLEEPER = """
import signal, subprocess, sys, time
if "ignore-term" in sys.argv:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
if "child" in sys.argv or "stubborn-child" in sys.argv:
    code = "import signal, time; "
    if "stubborn-child" in sys.argv:
        code += "signal.signal(signal.SIGTERM, signal.SIG_IGN); "
    code += "print('child ready', flush=True); time.sleep(600)"  # the same stdout as ours
    subprocess.Popen([sys.executable, "-c", code, "the-" + "child"], start_new_session=True)
print("ready", flush=True)
time.sleep(600)
"""


def start(tag, *args, new_session=True):
    proc = subprocess.Popen(
        [sys.executable, "-c", SLEEPER, *args],
        env={**os.environ, TAG: tag},
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=new_session,
    )
    expected = {"ready\n"}
    if "child" in args or "stubborn-child" in args:  # and the child's signal handler is set
        expected.add("child ready\n")
    assert {proc.stdout.readline() for _ in expected} == expected  # in either order
    return proc


def test_marked_processes_are_found_by_mark_and_command_line(tag):
    proc = start(tag, "child")
    try:
        deadline = time.monotonic() + 10
        while len(P.marked_pids(TAG, tag)) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        found = P.marked_pids(TAG, tag)
        assert proc.pid in found and len(found) == 2 and found == sorted(found)
        child = [pid for pid in found if pid != proc.pid]
        assert P.marked_pids(TAG, tag, "the-child") == child
        assert P.marked_pids(TAG, tag, "no-such-argument") == []
        assert P.marked_pids(TAG, "another-tag") == []
        assert os.getpid() not in P.marked_pids(TAG, tag)
    finally:
        P.stop_job(proc, TAG, tag, grace_s=5)
    assert P.marked_pids(TAG, tag) == []  # the re-parented child too
    assert proc.returncode == -signal.SIGTERM


def test_a_zombie_is_not_alive(tag):
    proc = start(tag)
    os.kill(proc.pid, signal.SIGKILL)

    def state():  # /proc/PID/stat: "pid (command) state ..."
        return Path(f"/proc/{proc.pid}/stat").read_text().rsplit(")", 1)[1].split()[0]

    deadline = time.monotonic() + 10
    while state() != "Z" and time.monotonic() < deadline:
        time.sleep(0.02)
    assert state() == "Z"  # dead, and not reaped: we have not waited for it
    assert P.marked_pids(TAG, tag) == []
    assert proc.poll() == -signal.SIGKILL


def test_wait_gone_returns_what_outlives_the_deadline(tag):
    proc = start(tag)
    start_time = time.monotonic()
    assert P.wait_gone(TAG, tag, timeout_s=0.3) == [proc.pid]
    assert time.monotonic() - start_time >= 0.3
    proc.terminate()
    proc.wait()
    assert P.wait_gone(TAG, tag, timeout_s=5) == []


def test_stop_job_kills_what_ignores_sigterm_after_the_grace(tag):
    proc = start(tag, "ignore-term")
    start_time = time.monotonic()
    P.stop_job(proc, TAG, tag, grace_s=0.5)
    assert proc.returncode == -signal.SIGKILL
    assert 0.5 <= time.monotonic() - start_time < 15
    assert P.marked_pids(TAG, tag) == []


@pytest.mark.parametrize("child", ["child", "stubborn-child"])
def test_stop_job_after_the_leader_exited_still_stops_its_leftovers(tag, child):
    leader = start(tag, child)
    deadline = time.monotonic() + 10
    while len(P.marked_pids(TAG, tag)) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    os.kill(leader.pid, signal.SIGKILL)  # the child is orphaned
    leader.wait()
    assert len(P.marked_pids(TAG, tag)) == 1
    P.stop_job(leader, TAG, tag, grace_s=1)  # the leader's group no longer holds the child
    assert P.marked_pids(TAG, tag) == []


def test_signal_pids_skips_processes_that_are_gone(tag):
    proc = start(tag)
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    P.signal_pids([gone.pid, proc.pid], signal.SIGTERM)
    assert proc.wait(timeout=10) == -signal.SIGTERM


def test_free_port_can_be_bound_at_once():
    port = P.free_port()
    assert 1024 <= port <= 65535
    with socket.socket() as s:
        s.bind(("127.0.0.1", port))
