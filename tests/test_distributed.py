"""d2lgpu.distributed: backend choice, torchrun set-up, and launch() from a notebook.

The launch() tests start real torchrun jobs (gloo on the CPU) and check afterwards, through
/proc, that no process they started is left.
"""

import _thread
import os
import sys
import textwrap
import threading
import time

import pytest
import torch
from ddp_helpers.procs import TAG, free_port, tagged_pids

from d2lgpu import distributed as D


def write(tmp_path, name, code):
    path = tmp_path / name
    path.write_text(textwrap.dedent(code))
    return path


# --- choose_backend, setup, print0 -------------------------------------------------------------


def test_choose_backend_is_gloo_without_gpus(monkeypatch):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    assert D.choose_backend() == "gloo"
    assert D.choose_backend(1) == "gloo"
    monkeypatch.setenv("LOCAL_WORLD_SIZE", "4")
    assert D.choose_backend() == "gloo"


def test_choose_backend_needs_one_gpu_per_local_process(monkeypatch):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "device_count", lambda: 2)
    assert D.choose_backend(2) == "nccl"
    assert D.choose_backend(3) == "gloo"
    monkeypatch.setenv("LOCAL_WORLD_SIZE", "3")
    assert D.choose_backend() == "gloo"
    monkeypatch.delenv("LOCAL_WORLD_SIZE")
    assert D.choose_backend() == "nccl"  # outside torchrun: one process
    with pytest.raises(ValueError, match="nproc_per_node"):
        D.choose_backend(0)


def test_setup_without_torchrun_says_how_to_launch(monkeypatch):
    for name in D.TORCHRUN_VARS:
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(RuntimeError, match="torchrun --standalone --nproc-per-node=2") as info:
        D.setup()
    assert "RANK" in str(info.value)
    with pytest.raises(ValueError, match="timeout_s"):
        D.setup(timeout_s=0)
    with pytest.raises(ValueError, match="backend"):
        D.setup(backend="mpi")


def fake_torchrun_env(monkeypatch, rank=0, world_size=1):
    values = dict(
        RANK=rank,
        WORLD_SIZE=world_size,
        LOCAL_RANK=rank,
        LOCAL_WORLD_SIZE=world_size,
        MASTER_ADDR="127.0.0.1",
        MASTER_PORT=free_port(),
    )
    for name, value in values.items():
        monkeypatch.setenv(name, str(value))


@pytest.mark.skipif(torch.cuda.is_available(), reason="checks the fallback: requires no CUDA")
def test_setup_nccl_without_gpu_falls_back_to_gloo(monkeypatch, capsys):
    fake_torchrun_env(monkeypatch)  # a world of one: this process, no torchrun needed
    try:
        info = D.setup(timeout_s=30, backend="nccl")
        assert info == D.DistInfo(0, 1, 0, "gloo", torch.device("cpu"))
        assert torch.distributed.get_backend() == "gloo"
        with pytest.raises(RuntimeError, match="already initialized"):
            D.setup()
    finally:
        D.cleanup()
    D.cleanup()  # a second call is harmless
    assert not torch.distributed.is_initialized()
    assert "falling back to gloo" in capsys.readouterr().out
    with pytest.raises(AttributeError):
        info.rank = 1  # frozen


def test_print0_prints_on_rank_0_only(monkeypatch, capsys):
    monkeypatch.delenv("RANK", raising=False)
    assert D.is_main_process()
    D.print0("not distributed")
    monkeypatch.setenv("RANK", "1")
    assert not D.is_main_process()
    D.print0("from rank 1")
    monkeypatch.setenv("RANK", "0")
    D.print0("from rank 0", end="!\n")
    assert capsys.readouterr().out == "not distributed\nfrom rank 0!\n"


# --- launch ------------------------------------------------------------------------------------


def test_launch_rejects_bad_arguments(tmp_path):
    script = write(tmp_path, "ok.py", "print('hi')\n")
    with pytest.raises(FileNotFoundError, match="script"):
        D.launch(tmp_path / "missing.py")
    with pytest.raises(ValueError, match="nproc"):
        D.launch(script, nproc=0)
    with pytest.raises(TypeError, match="nproc"):
        D.launch(script, nproc="2")
    with pytest.raises(TypeError, match="nproc"):
        D.launch(script, nproc=True)
    with pytest.raises(ValueError, match="timeout_s"):
        D.launch(script, timeout_s=0)
    with pytest.raises(ValueError, match="timeout_s"):
        D.launch(script, timeout_s=-5)
    with pytest.raises(ValueError, match="nnodes"):
        D.launch(script, nnodes=0)
    with pytest.raises(ValueError, match="rendezvous"):
        D.launch(script, nnodes=2)
    with pytest.raises(TypeError, match="args"):
        D.launch(script, args="--epochs 3")
    with pytest.raises(ValueError, match="tail_lines"):
        D.launch(script, tail_lines=-1)


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
        "print('own store', os.environ['TORCH_DISABLE_SHARE_RDZV_TCP_STORE'])\n",
    )
    # One process: torchrun itself sets nothing, so the 1 comes from launch().
    out = D.launch(script, nproc=1, env={TAG: tag}, echo=False).output
    assert f"threads 1 python {sys.executable}" in out
    assert "own store 1" in out  # so that --max-restarts works (see launch's comment)
    out = D.launch(script, nproc=1, env={TAG: tag, "OMP_NUM_THREADS": "2"}, echo=False).output
    assert "threads 2" in out


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_launch_failure_raises_with_exit_code_and_tail(tmp_path, tag):
    script = write(
        tmp_path,
        "fail.py",
        """\
        import os, sys
        for i in range(40):
            print("line", i)
        if os.environ["RANK"] == "1":
            print("rank 1 gives up", flush=True)
            sys.exit(3)
        """,
    )
    with pytest.raises(D.LaunchError) as info:
        D.launch(script, nproc=2, env={TAG: tag}, echo=False, tail_lines=60)
    err = info.value
    assert isinstance(err, RuntimeError) and not err.timed_out
    assert err.result.returncode != 0
    assert f"exit code {err.result.returncode}" in str(err)
    assert "last 60 lines of output" in str(err)
    assert "rank 1 gives up" in str(err)
    assert "exitcode  : 3" in str(err)  # torchrun's report on the failed rank
    assert "line 0" in err.result.output  # the whole output is kept

    with pytest.raises(D.LaunchError) as info:
        D.launch(script, nproc=2, env={TAG: tag}, echo=False, tail_lines=3)
    assert str(info.value).count("\n") == 3


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

    threading.Thread(target=interrupt_when_workers_sleep, daemon=True).start()
    with pytest.raises(KeyboardInterrupt):
        D.launch(script, nproc=2, env={TAG: tag}, timeout_s=100, grace_s=10, echo=False)
    assert not tagged_pids(tag), "launch() re-raised with processes still running"
