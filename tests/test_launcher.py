"""d2lgpu.launcher: launch() from a notebook, with real torchrun jobs (gloo on the CPU).

Each test checks afterwards, through /proc, that no process it started is left.
"""

import _thread
import gc
import os
import signal
import sys
import textwrap
import threading
import time
import warnings
from pathlib import Path

import pytest
from ddp_helpers.procs import TAG, tagged_pids

from d2lgpu import launcher as D


def write(tmp_path, name, code):
    path = tmp_path / name
    path.write_text(textwrap.dedent(code))
    return path


# --- launch ------------------------------------------------------------------------------------


def test_launch_rejects_bad_arguments(tmp_path):
    script = write(tmp_path, "ok.py", "print('hi')\n")
    with pytest.raises(FileNotFoundError, match="script"):
        D.launch(tmp_path / "missing.py")
    for bad in (0, "2", True, 1.0):
        with pytest.raises(ValueError, match=f"nproc must be an int >= 1, got {bad!r}"):
            D.launch(script, nproc=bad)
    for bad in (0, -5, float("nan"), "10", True):
        with pytest.raises(ValueError, match="timeout_s must be a number > 0"):
            D.launch(script, timeout_s=bad)
    with pytest.raises(ValueError, match="grace_s must be a number > 0"):
        D.launch(script, grace_s=0)
    with pytest.raises(ValueError, match="nnodes must be an int >= 1, got 0"):
        D.launch(script, nnodes=0)
    with pytest.raises(ValueError, match="rendezvous"):
        D.launch(script, nnodes=2)
    with pytest.raises(ValueError, match="args and extra_torchrun_args must be sequences"):
        D.launch(script, args="--epochs 3")
    with pytest.raises(ValueError, match="args and extra_torchrun_args must be sequences"):
        D.launch(script, extra_torchrun_args="--max-restarts=1")
    with pytest.raises(ValueError, match="tail_lines must be an int >= 0, got -1"):
        D.launch(script, tail_lines=-1)


def test_torchrun_command_is_this_python_one_node_unless_told(tmp_path):
    cmd = D.torchrun_command(tmp_path / "s.py", 3, ["--epochs", 2])
    assert cmd == [
        sys.executable, "-m", "torch.distributed.run", "--standalone",
        "--nproc-per-node=3", str(tmp_path / "s.py"), "--epochs", "2",
    ]  # fmt: skip
    rdzv = ["--rdzv-backend=c10d", "--rdzv-endpoint=h:1", "--rdzv-id=j"]
    cmd = D.torchrun_command("s.py", 1, nnodes=2, extra=rdzv)
    assert cmd[3:] == ["--nnodes=2", "--nproc-per-node=1", *rdzv, "s.py"]
    assert "--standalone" not in cmd
    assert D.torchrun_command("s.py", 1, nnodes=2, extra=["--master-addr=h"])[3] == "--nnodes=2"
    cmd = D.torchrun_command("s.py", 2, log_dir=tmp_path)
    assert cmd[3:6] == ["--standalone", f"--log-dir={tmp_path}", "--nproc-per-node=2"]
    assert D.torchrun_command("s.py")[3:5] == ["--standalone", "--nproc-per-node=2"]  # the default


@pytest.mark.parametrize("named", [None, "--log-dir=/x", "--log_dir=/x", "--log-dir"])
def test_launch_gives_torchrun_a_log_folder_it_removes_unless_one_is_named(
    tmp_path, tag, monkeypatch, named
):
    """Without --log-dir, torchrun leaves a torchelastic_* folder in /tmp at every launch."""
    seen = []

    def command(script, nproc, args, *, log_dir, **kw):
        seen.append(log_dir)
        listing = "print(sorted(os.listdir(sys.argv[1])))" if log_dir else "print(None)"
        code = f"import os, sys; {listing}"
        return [sys.executable, "-c", code, *([log_dir] if log_dir else [])]

    monkeypatch.setattr(D, "torchrun_command", command)
    extra = [named] if named else []
    result = D.launch(
        write(tmp_path, "s.py", ""), env={TAG: tag}, echo=False, extra_torchrun_args=extra
    )
    if named:
        assert seen == [None] and result.output == "None\n"  # torchrun's, or the user's, folder
    else:
        assert result.output == "[]\n"  # it exists, empty, while the job runs
        assert os.path.basename(seen[0]).startswith("d2lgpu-torchrun-")
        assert not os.path.exists(seen[0])  # and is gone afterwards


# --- the machinery around torchrun, with a plain Python script in its place (fast) ----------


@pytest.fixture
def plain_python(monkeypatch):
    """launch() runs ``python script args`` instead of torchrun: the same pipes, clock, stop."""
    monkeypatch.setattr(
        D, "torchrun_command", lambda script, nproc, args, **kw: [sys.executable, script, *args]
    )


def test_launch_echoes_every_line_and_returns_the_whole_output(tmp_path, tag, plain_python, capsys):
    script = write(tmp_path, "lines.py", "for i in range(5):\n    print('line', i)\n")
    result = D.launch(script, env={TAG: tag}, tail_lines=2)
    assert result.returncode == 0 and result.seconds > 0
    assert result.output == "".join(f"line {i}\n" for i in range(5))
    assert capsys.readouterr().out == result.output  # as it came, in the cell
    assert D.launch(script, env={TAG: tag}, echo=False).output == result.output
    assert capsys.readouterr().out == ""


def open_pipes() -> set[str]:
    fds = Path("/proc/self/fd")
    pipes = set()
    for fd in fds.iterdir():
        try:
            if os.readlink(fd).startswith("pipe:"):
                pipes.add(fd.name)
        except OSError:  # closed meanwhile (the listing's own descriptor among them)
            pass
    return pipes


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="reads /proc")
def test_launch_closes_its_pipe_however_the_job_ends(tmp_path, tag, plain_python):
    # A notebook launches again and again in one kernel: a pipe left open at each launch
    # would use up the kernel's file descriptors.
    ok = write(tmp_path, "ok.py", "print('done')\n")
    fails = write(tmp_path, "fails.py", "raise SystemExit(3)\n")
    slow = write(tmp_path, "slow.py", "import time\nprint('started', flush=True)\ntime.sleep(60)\n")
    gc.collect()
    before = open_pipes()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ResourceWarning)  # what closes only when collected
        D.launch(ok, env={TAG: tag}, echo=False)
        with pytest.raises(D.LaunchError):
            D.launch(fails, env={TAG: tag}, echo=False)
        with pytest.raises(D.LaunchError):
            D.launch(slow, env={TAG: tag}, echo=False, timeout_s=1, grace_s=5)
        gc.collect()
    assert open_pipes() <= before, "launch() left a pipe open"
    unclosed = [str(w.message) for w in caught if issubclass(w.category, ResourceWarning)]
    assert not unclosed, f"launch() left its pipe to the garbage collector: {unclosed}"


def test_launch_failure_shows_as_many_lines_as_asked(tmp_path, tag, plain_python):
    script = write(
        tmp_path, "fails.py", "for i in range(5):\n    print('line', i)\nraise SystemExit(2)\n"
    )
    cases = [(2, ["line 3", "line 4"]), (0, []), (9, [f"line {i}" for i in range(5)])]
    for tail_lines, shown in cases:
        with pytest.raises(D.LaunchError) as info:
            D.launch(script, env={TAG: tag}, echo=False, tail_lines=tail_lines)
        assert not info.value.timed_out and info.value.result.returncode == 2
        assert info.value.result.output.count("\n") == 5  # the whole output is kept
        head, _, tail = str(info.value).partition(":\n")
        assert head.endswith(
            f"failed with exit code 2 after {info.value.result.seconds:.1f} s; last {len(shown)} lines of output"
        )
        assert tail.splitlines() == shown


# What rank 0 prints when another program took torchrun's port (from a real run), then the
# script counts its launches in a file.
PORT_TAKEN = """\
import pathlib, sys
runs = pathlib.Path(sys.argv[1])
n = len(runs.read_text()) if runs.exists() else 0
runs.write_text("x" * (n + 1))
if n < int(sys.argv[2]):
    print("torch.distributed.DistNetworkError: The server socket has failed to listen on any "
          "local network address. port: 40235, useIpv6: false, code: -98, name: EADDRINUSE, "
          "message: address already in use", flush=True)
    raise SystemExit(1)
print("trained", flush=True)
"""


def launch_once_taken(script, runs, tag, **kwargs):
    """A quiet launch of a PORT_TAKEN script whose first launch finds the port taken."""
    return D.launch(script, args=[runs, "1"], env={TAG: tag}, echo=False, **kwargs)


def test_launch_tries_once_more_when_torchruns_port_was_taken(tmp_path, tag, plain_python, capsys):
    script, runs = write(tmp_path, "port.py", PORT_TAKEN), tmp_path / "runs"
    result = D.launch(script, args=[runs, "1"], env={TAG: tag})
    assert runs.read_text() == "xx" and result.returncode == 0
    assert result.output == "trained\n"  # the second launch's
    shown = capsys.readouterr().out
    assert shown.index("EADDRINUSE") < shown.index(D.PORT_TAKEN_NOTE) < shown.index("trained")
    # Taken twice: the second failure is raised, with PyTorch's words; no third launch, and
    # the note only once.
    for echo in (True, False):
        runs.unlink()
        with pytest.raises(D.LaunchError, match="EADDRINUSE") as info:
            D.launch(script, args=[runs, "5"], env={TAG: tag}, echo=echo)
        assert runs.read_text() == "xx" and info.value.result.returncode == 1
        assert capsys.readouterr().out.count(D.PORT_TAKEN_NOTE) == int(echo)
    assert not tagged_pids(tag)


def test_both_launches_share_one_time_limit(tmp_path, tag, plain_python):
    # The first launch fails after about 3 s, the second would run for 10 minutes: it is
    # stopped at the deadline of timeout_s=8 from the first start, so after about 5 s.
    script = PORT_TAKEN.replace(
        "if n < int", "if n == 0:\n    __import__('time').sleep(3)\nif n < int"
    )
    script = script.replace('print("trained"', "__import__('time').sleep(600)\nprint(\"trained\"")
    runs = tmp_path / "runs"
    with pytest.raises(D.LaunchError, match="timed out after 8 s") as info:
        launch_once_taken(write(tmp_path, "s.py", script), runs, tag, timeout_s=8, grace_s=5)
    assert runs.read_text() == "xx" and info.value.timed_out
    assert info.value.result.seconds < 6.5  # the second launch's share: 8 s less the first's 3
    assert not tagged_pids(tag)


def test_launch_does_not_try_again_after_any_other_failure(tmp_path, tag, plain_python):
    runs = tmp_path / "runs"
    other = write(tmp_path, "other.py", PORT_TAKEN.replace("EADDRINUSE", "ECONNREFUSED"))
    with pytest.raises(D.LaunchError, match="ECONNREFUSED"):
        launch_once_taken(other, runs, tag)
    assert runs.read_text() == "x"
    # Nor for EADDRINUSE from the script's own sockets, nor on several nodes, where the
    # other nodes failed too.
    for name, edit, kwargs in [
        ("own.py", ("The server socket has failed to listen on any", "OSError:"), {}),
        ("nodes.py", ("", ""), {"nnodes": 2, "extra_torchrun_args": ["--rdzv-backend=c10d"]}),
    ]:
        runs.unlink()
        script = write(tmp_path, name, PORT_TAKEN.replace(*edit))
        with pytest.raises(D.LaunchError, match="EADDRINUSE"):
            launch_once_taken(script, runs, tag, **kwargs)
        assert runs.read_text() == "x", name
    # Nor when the first launch used up the time: both launches share timeout_s.
    runs.unlink()
    late = PORT_TAKEN.replace(
        "    raise SystemExit(1)", "    __import__('time').sleep(2.2)\n    raise SystemExit(1)"
    )
    with pytest.raises(D.LaunchError) as info:
        launch_once_taken(write(tmp_path, "late.py", late), runs, tag, timeout_s=3)
    assert runs.read_text() == "x"
    assert info.value.timed_out or "EADDRINUSE" in str(info.value)  # timed out: a busy machine


def test_launch_stops_a_script_that_runs_too_long(tmp_path, tag, plain_python):
    script = write(
        tmp_path, "slow.py", "import time\nprint('started', flush=True)\ntime.sleep(600)\n"
    )
    with pytest.raises(
        D.LaunchError, match=r"timed out after 1 s \(stopped; exit code -15\)"
    ) as info:
        D.launch(script, env={TAG: tag}, echo=False, timeout_s=1, grace_s=5)
    assert info.value.timed_out and info.value.result.output in ("", "started\n")  # busy machine
    assert not tagged_pids(tag)


ORPHAN = """\
import subprocess, sys
# A process of the launch that outlives its leader and keeps the output pipe open.
subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"], start_new_session=True)
print("leader exits", flush=True)
"""


@pytest.mark.timeout(60)
def test_launch_stops_a_script_that_closes_its_output_and_runs_on(tmp_path, tag, plain_python):
    # The end of the output is not the end of the job: the time limit still holds after it.
    code = "import os, time\nprint('closing', flush=True)\n"
    code += "os.close(1)\nos.close(2)\ntime.sleep(600)\n"  # stdout and stderr: the pipe ends
    start = time.monotonic()
    with pytest.raises(D.LaunchError, match=r"timed out after 2 s") as info:
        D.launch(write(tmp_path, "quiet.py", code), env={TAG: tag}, echo=False, timeout_s=2)
    assert info.value.timed_out and info.value.result.output == "closing\n"
    assert time.monotonic() - start < 30  # not the script's 600 s
    assert not tagged_pids(tag)


def test_launch_returns_when_the_leader_exits_though_an_orphan_holds_the_pipe(
    tmp_path, tag, plain_python
):
    script = write(tmp_path, "orphan.py", ORPHAN)
    # Its exit, not the end of the output, ends the wait: no time-out, and the orphan stopped.
    result = D.launch(script, env={TAG: tag}, echo=False, timeout_s=60, grace_s=5)
    assert result.returncode == 0 and result.output == "leader exits\n"
    assert not tagged_pids(tag)


def test_launch_shows_30_lines_by_default_and_starts_a_session_of_its_own(
    tmp_path, tag, plain_python
):
    # A session of its own: Ctrl-C in a terminal reaches launch(), not torchrun behind its back.
    code = "import os\nprint(os.getsid(0) == os.getpid())\nfor i in range(40):\n    print(i)\n"
    code += "raise SystemExit(1)\n"
    script = write(tmp_path, "forty.py", code)
    with pytest.raises(D.LaunchError, match="last 30 lines") as info:
        D.launch(script, env={TAG: tag}, echo=False)
    assert info.value.result.output.startswith("True\n")
    assert str(info.value).splitlines()[1:] == [str(i) for i in range(10, 40)]


RANKS = """\
import os

import torch
import torch.distributed as dist

dist.init_process_group("gloo")
t = torch.ones(1)
dist.all_reduce(t)
print(f"rank {dist.get_rank()} of {dist.get_world_size()} sum {t.item():g} "
      f"threads {os.environ['OMP_NUM_THREADS']}", flush=True)
dist.destroy_process_group()
"""


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_launch_two_ranks_returns_their_output(tmp_path, tag, capsys):
    script = write(tmp_path, "ranks.py", RANKS)
    result = D.launch(script, nproc=2, env={TAG: tag}, timeout_s=90)
    assert result.returncode == 0
    assert "rank 0 of 2 sum 2" in result.output
    assert "rank 1 of 2 sum 2" in result.output
    assert "threads 1" in result.output
    assert result.seconds > 0
    assert "rank 1 of 2" in capsys.readouterr().out  # streamed into the cell as well


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_launch_sets_one_thread_unless_told_and_uses_this_python(tmp_path, tag):
    script = write(
        tmp_path,
        "threads.py",
        "import os, sys\n"
        "print('threads', os.environ['OMP_NUM_THREADS'], 'python', sys.executable)\n"
        "print('own store', os.environ['TORCH_DISABLE_SHARE_RDZV_TCP_STORE'])\n"
        "print('unbuffered', os.environ['PYTHONUNBUFFERED'])\n"
        "print('marked', len(os.environ['D2LGPU_LAUNCH_ID']))\n"
        "print('error file', os.environ['TORCHELASTIC_ERROR_FILE'])\n",
    )
    # One process: torchrun itself sets nothing, so the 1 comes from launch().
    out = D.launch(script, nproc=1, env={TAG: tag}, echo=False).output
    assert f"threads 1 python {sys.executable}" in out
    assert "own store 1" in out  # so that --max-restarts works (see launch's comment)
    assert "unbuffered 1" in out and "marked 32" in out  # a uuid4 hex: found again by it
    # torchrun's log folder, with the workers' error files, is launch()'s, and is removed.
    error_file = Path(out.split("error file ")[1].split()[0])
    folder = next(p for p in error_file.parents if p.name.startswith("d2lgpu-torchrun-"))
    assert not folder.exists()
    out = D.launch(script, nproc=1, env={TAG: tag, "OMP_NUM_THREADS": "2"}, echo=False).output
    assert "threads 2" in out


# Rank 1 fails only once rank 0 has printed all its lines: otherwise, on a busy machine, rank
# 0's lines could come after rank 1's last words and push them out of the tail.
FAIL = """\
import os, sys, time
from pathlib import Path

done = Path(sys.argv[1])
for i in range(40):
    sys.stdout.write(f"line {i} of rank {os.environ['RANK']}\\n")
sys.stdout.flush()
if os.environ["RANK"] == "0":
    done.touch()
else:
    deadline = time.monotonic() + 60
    while not done.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    print("rank 1 gives up", flush=True)
    sys.exit(3)
"""


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_launch_failure_raises_with_exit_code_and_tail(tmp_path, tag):
    script = write(tmp_path, "fail.py", FAIL)
    with pytest.raises(D.LaunchError) as info:
        D.launch(script, 2, [tmp_path / "done0"], env={TAG: tag}, echo=False, tail_lines=60)
    err = info.value
    assert isinstance(err, RuntimeError) and not err.timed_out
    assert err.result.returncode == 1  # torchrun's own code for a failed worker
    assert "failed with exit code 1 after" in str(err)
    assert "last 60 lines of output" in str(err)
    tail = str(err).split("lines of output:\n", 1)[1].splitlines()
    assert len(tail) == 60 and tail == err.result.output.splitlines()[-60:]
    assert "rank 1 gives up" in tail
    assert any("exitcode  : 3" in line for line in tail)  # torchrun's report on rank 1
    output = err.result.output.splitlines()
    for rank in (0, 1):  # the whole output is kept, not only the tail
        assert [f"line {i} of rank {rank}" for i in range(40)] == [
            line for line in output if line.endswith(f"of rank {rank}")
        ]

    with pytest.raises(D.LaunchError) as info:
        D.launch(script, 2, [tmp_path / "done1"], env={TAG: tag}, echo=False, tail_lines=3)
    assert "last 3 lines of output:" in str(info.value)
    assert str(info.value).splitlines()[1:] == info.value.result.output.splitlines()[-3:]


def test_failure_message_says_how_it_ended_and_shows_the_tail():
    failed = D.LaunchResult(1, "a\nb\n", 3.25)
    assert D.failure_message("s.py", failed, ["a", "b"]) == (
        "torchrun s.py failed with exit code 1 after 3.2 s; last 2 lines of output:\na\nb"
    )
    assert D.failure_message("s.py", failed, []).endswith("; last 0 lines of output:\n")
    stopped = D.LaunchResult(-15, "", 20.5)
    assert D.failure_message("s.py", stopped, ["x"], timeout_s=20) == (
        "torchrun s.py timed out after 20 s (stopped; exit code -15); last 1 lines of output:\nx"
    )


# One write per line: launch() runs the workers unbuffered, and print("sleeping", pid)
# makes several writes that two workers sharing the pipe can interleave.
SLEEPER = """\
import os, sys, time
sys.stdout.write(f"sleeping {os.getpid()}\\n")
sys.stdout.flush()
time.sleep(3600)
"""


@pytest.mark.slow
@pytest.mark.timeout(150)
def test_launch_timeout_stops_every_process(tmp_path, tag):
    script = write(tmp_path, "sleeper.py", SLEEPER)
    start = time.monotonic()
    with pytest.raises(D.LaunchError, match="timed out after 20 s") as info:
        D.launch(script, nproc=2, env={TAG: tag}, timeout_s=20, grace_s=10)
    elapsed = time.monotonic() - start
    assert info.value.timed_out
    assert elapsed < 20 + 10 + 15, f"took {elapsed:.0f} s"
    workers = [
        int(line.split()[1])
        for line in info.value.result.output.splitlines()
        if line.startswith("sleeping")
    ]
    assert len(workers) == 2, "the workers should have started within 20 s"
    assert not tagged_pids(tag), "launch() returned with processes still running"
    for pid in workers:
        assert not os.path.exists(f"/proc/{pid}") or _is_zombie(pid)


def _is_zombie(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return True


@pytest.mark.slow
@pytest.mark.timeout(150)
def test_launch_keyboard_interrupt_stops_every_process(tmp_path, tag):
    """Interrupting the kernel (Ctrl-C, the stop button) while launch() waits."""
    script = write(tmp_path, "sleeper.py", SLEEPER)

    def interrupt_when_workers_sleep():
        deadline = time.monotonic() + 60
        while len(tagged_pids(tag, "sleeper.py")) < 3 and time.monotonic() < deadline:
            time.sleep(0.2)  # torchrun and its 2 workers all have sleeper.py in argv
        _thread.interrupt_main()

    # A kernel handles Ctrl-C; a process started in the background of a shell inherits
    # SIGINT ignored, and then interrupt_main() does nothing: handle it as a kernel does.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        threading.Thread(target=interrupt_when_workers_sleep, daemon=True).start()
        with pytest.raises(KeyboardInterrupt):
            D.launch(script, nproc=2, env={TAG: tag}, timeout_s=100, grace_s=10, echo=False)
    finally:
        signal.signal(signal.SIGINT, previous)
    assert not tagged_pids(tag), "launch() re-raised with processes still running"
