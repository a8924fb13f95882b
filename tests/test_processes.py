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


class FakeJob:
    """A job's leader for stop_job, scripted: whether SIGTERM ends it, and what is marked."""

    def __init__(self, monkeypatch, *, leader_stops, marked, survivors):
        self.pid, self.returncode, self.leader_stops = 4242, None, leader_stops
        events = self.events = []

        def marked_pids(name, value):
            events.append(("marked",))
            return marked

        def wait_gone(name, value, timeout_s):
            events.append(("wait_gone", timeout_s))
            return survivors

        monkeypatch.setattr(P, "marked_pids", marked_pids)
        monkeypatch.setattr(P, "wait_gone", wait_gone)
        monkeypatch.setattr(
            P, "signal_pids", lambda pids, sig: events.append(("signal", pids, sig))
        )
        monkeypatch.setattr(P.os, "killpg", lambda pid, sig: events.append(("killpg", pid, sig)))

    def poll(self):
        return self.returncode

    def send_signal(self, sig):
        self.events.append(("send_signal", sig))
        if self.leader_stops:
            self.returncode = -sig

    def wait(self, timeout=None):
        self.events.append(("wait", timeout))
        if self.returncode is None and timeout is not None:
            raise subprocess.TimeoutExpired("leader", timeout)
        self.returncode = -signal.SIGKILL if self.returncode is None else self.returncode
        return self.returncode


def test_stop_job_asks_the_leader_first_then_the_marked_then_kills(monkeypatch):
    job = FakeJob(monkeypatch, leader_stops=False, marked=[4242, 4243], survivors=[4243])
    P.stop_job(job, TAG, "t", grace_s=8)
    assert job.events == [
        ("send_signal", signal.SIGTERM),  # the leader alone: torchrun stops its workers
        ("wait", 8),  # for the whole grace
        ("marked",),
        ("signal", [4242, 4243], signal.SIGTERM),
        ("wait_gone", 5.0),  # at most 5 s more
        ("signal", [4243], signal.SIGKILL),  # only what outlived SIGTERM
        ("killpg", 4242, signal.SIGKILL),  # the leader still runs: its group, last
        ("wait", None),  # reaped
        ("wait_gone", 5.0),  # the killed are gone on return
    ]
    assert job.returncode == -signal.SIGKILL


def test_stop_job_of_a_leader_that_stops_at_sigterm_kills_nothing(monkeypatch):
    job = FakeJob(monkeypatch, leader_stops=True, marked=[], survivors=[])
    P.stop_job(job, TAG, "t")
    assert job.events == [
        ("send_signal", signal.SIGTERM),
        ("wait", 15.0),  # the default grace
        ("marked",),
        ("signal", [], signal.SIGKILL),
        ("wait", None),
    ]
    assert job.returncode == -signal.SIGTERM


def test_stop_job_gives_short_graces_to_the_leftovers_too(monkeypatch):
    job = FakeJob(monkeypatch, leader_stops=True, marked=[4243], survivors=[])
    job.returncode = 0  # the leader had exited already: no signal, no wait for it
    P.stop_job(job, TAG, "t", grace_s=2)
    assert job.events == [
        ("marked",),
        ("signal", [4243], signal.SIGTERM),
        ("wait_gone", 2),
        ("signal", [], signal.SIGKILL),
        ("wait", None),
    ]


class FakeClock:
    """time.monotonic and time.sleep for processes: sleeping moves the clock, nothing waits."""

    def __init__(self, monkeypatch):
        self.now, self.sleeps = 1000.0, []
        monkeypatch.setattr(P.time, "monotonic", lambda: self.now)
        monkeypatch.setattr(P.time, "sleep", self.sleep)

    def sleep(self, seconds):
        self.sleeps.append(seconds)
        self.now += seconds


def test_wait_gone_polls_often_until_its_default_deadline_of_15_s(monkeypatch):
    clock = FakeClock(monkeypatch)
    looks = []

    def marked_pids(name, value):
        looks.append(name)
        assert len(looks) < 10_000, "wait_gone does not move towards its deadline"
        return [7]

    monkeypatch.setattr(P, "marked_pids", marked_pids)
    assert P.wait_gone(TAG, "t") == [7]
    assert 15 <= clock.now - 1000 <= 15.2 and max(clock.sleeps) <= 0.1  # a short poll
    clock.sleeps.clear()
    answers = iter([[7], [7], []])  # gone at the third look
    monkeypatch.setattr(P, "marked_pids", lambda name, value: next(answers))
    assert P.wait_gone(TAG, "t", timeout_s=5) == [] and len(clock.sleeps) == 2
