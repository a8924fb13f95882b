"""d2lgpu.ranks: gloo ranks return what the function returned, rank by rank; a rank that
raises or never finishes is reported, not hung; all-reduces are counted with their shapes,
bytes and reduction. Ranks are forked where torch sees no GPU and started by a fork server,
with a notebook cell's function sent by value, where it does."""

import linecache
import os
import subprocess
import sys
import threading
import time
from datetime import timedelta

import pytest
import torch
import torch.distributed as dist

from d2lgpu import _rank_start, ranks
from d2lgpu.checks import _ranks
from d2lgpu.checks._util import CheckFailed, NotAttempted
from d2lgpu.checks.ch01_devices import fake_gpus
from d2lgpu.ranks import CannotSend, RankFailed, count_all_reduces, run_ranks

ROOT = __import__("pathlib").Path(__file__).resolve().parents[1]


def summed(rank, world):
    t = torch.full((3,), float(rank + 1))
    with count_all_reduces() as log:
        dist.all_reduce(t)
        dist.all_reduce(t[:1], op=dist.ReduceOp.MAX)
    return {"rank": dist.get_rank(), "world": dist.get_world_size(), "t": t, "log": log,
            "threads": torch.get_num_threads()}  # fmt: skip


def test_each_rank_returns_its_result_in_rank_order():
    results = run_ranks(summed, world=2)
    assert [r["rank"] for r in results] == [0, 1]
    for r in results:
        assert r["world"] == 2 and r["threads"] == 1
        torch.testing.assert_close(r["t"], torch.tensor([3.0, 3.0, 3.0]))
        assert r["log"].count == 2 and r["log"].bytes == 12 + 4
        assert [(c.shape, c.op) for c in r["log"].calls] == [((3,), "SUM"), ((1,), "MAX")]


def test_the_wrapper_is_removed_after_the_block():
    original = dist.all_reduce
    with count_all_reduces():
        assert dist.all_reduce is not original
    assert dist.all_reduce is original


def fails_on_rank_1(rank, world):
    if rank == 1:
        raise ValueError("rank one's own error")
    return rank


def test_an_exception_names_its_rank():
    with pytest.raises(RankFailed, match="(?s)rank 1: raised:.*rank one.s own error") as info:
        run_ranks(fails_on_rank_1)
    assert info.value.rank == 1


def rank_1_raises_while_rank_0_reduces(rank, world):
    if rank == 1:
        raise ValueError("rank one's own error")
    dist.all_reduce(torch.ones(1))  # rank 1 has left: this rank loses its peer
    return rank


def test_the_rank_whose_own_error_made_the_others_fail_is_the_one_reported():
    # rank 0 fails too, in its all-reduce ("Connection closed by peer" or a time-out), and
    # replies first in rank order; its failure follows from rank 1's
    with pytest.raises(RankFailed, match="(?s)rank 1: raised:.*rank one.s own error") as info:
        run_ranks(rank_1_raises_while_rank_0_reduces, timeout_s=5)
    assert info.value.rank == 1


LOST = "RuntimeError: [gloo/transport/tcp/pair.cc:598] Connection closed by peer [::1]:4000"


@pytest.mark.parametrize(
    "replies, blamed",
    [
        ([("ok", 0), ("ok", 1)], None),
        ([("error", LOST), ("error", "ValueError: own")], 1),  # its own error, not the lost peer
        ([("error", LOST), ("stub", "your code here")], 1),  # a caller's own status counts too
        ([("error", LOST), ("died", None)], 1),  # a rank that died took its peers with it
        ([("late", None), ("error", LOST)], 1),  # a lost peer says more than no reply
        ([("late", None), ("late", None)], 0),
        ([("error", "ValueError: a"), ("error", "ValueError: b")], 0),  # equals: the lowest
    ],
)
def test_root_cause_blames_own_errors_then_deaths_then_lost_peers_then_silence(replies, blamed):
    assert ranks.root_cause(replies) == blamed


def test_the_checkers_ranks_name_the_rank_whose_own_error_made_the_others_fail(monkeypatch):
    # the checkers' path (d2lgpu.checks._ranks): the same start, replies and blame as above
    monkeypatch.setattr(_ranks, "COLLECTIVE_TIMEOUT_S", 3.0)

    def raises_on_rank_1(model):
        if dist.get_rank() == 1:
            raise ValueError("rank one's own mistake")
        dist.all_reduce(torch.ones(1))  # rank 1 has left: rank 0 loses its peer

    with pytest.raises(CheckFailed) as failed:
        _ranks.run_ranks(raises_on_rank_1)
    assert failed.value.hint.startswith(
        "rank 1: your function raised ValueError: rank one's own mistake"
    ), failed.value.hint


def only_rank_0_reduces(rank, world):
    if rank == 0:
        dist.all_reduce(torch.ones(1))
    else:
        import time

        time.sleep(30)  # never calls it
    return rank


def test_a_rank_that_never_finishes_is_reported():
    with pytest.raises(RankFailed, match="rank 0"):
        run_ranks(only_rank_0_reduces, timeout_s=2)


def test_a_run_ends_as_soon_as_its_stuck_test_says_so():
    # the checkers pass _kit.Deadlock: ranks waiting for each other are "late" at once
    asked = []

    def stuck():
        asked.append(time.monotonic())
        return len(asked) > 2

    start = time.monotonic()
    replies = ranks.rank_replies(only_rank_0_reduces, 2, timeout_s=300, stuck=stuck)
    assert [status for status, _ in replies] == ["late", "late"]
    assert time.monotonic() - start < 100 and len(asked) == 3  # not at the time limit
    assert all(b - a >= ranks.POLL_S * 0.9 for a, b in zip(asked, asked[1:], strict=False))


def test_a_rank_stuck_in_a_collective_its_peer_called_otherwise_is_named_at_once():
    def broadcast_own(model):  # each rank broadcasts from itself: they wait for each other
        dist.broadcast(torch.ones(4), src=dist.get_rank())

    start = time.monotonic()
    with pytest.raises(CheckFailed) as failed:
        _ranks.run_ranks(broadcast_own)
    assert time.monotonic() - start < _ranks.COLLECTIVE_TIMEOUT_S
    hint = failed.value.hint
    assert "(rank 0: broadcast [4] from rank 0 at step 0; rank 1: broadcast [4] from rank 1 at" in (
        hint
    ), hint


def test_bad_arguments_are_named():
    with pytest.raises(TypeError, match="fn must be"):
        run_ranks(3)
    with pytest.raises(ValueError, match="world"):
        run_ranks(summed, world=0)
    with pytest.raises(ValueError, match="timeout_s"):
        run_ranks(summed, timeout_s=0)


def _as_if_forked_after_cuda():
    """In a rank: make torch believe a GPU exists whose CUDA may not start (a process forked
    after its parent used CUDA raises on any CUDA initialization)."""

    def refuse(*args, **kwargs):
        raise RuntimeError("Cannot re-initialize CUDA in forked subprocess (simulated)")

    fake_gpus(1).__enter__()  # for the rest of this rank's life
    for name in ("_lazy_init", "init", "current_device", "set_device", "synchronize"):
        setattr(torch.cuda, name, refuse)


def dtensor_and_pipelining(rank, world):
    _as_if_forked_after_cuda()
    from torch import nn
    from torch.distributed.device_mesh import init_device_mesh
    from torch.distributed.pipelining import PipelineStage, Schedule1F1B
    from torch.distributed.tensor.parallel import (
        ColwiseParallel,
        RowwiseParallel,
        parallelize_module,
    )

    torch.manual_seed(0)
    mlp = nn.Sequential(nn.Linear(4, 8), nn.GELU(), nn.Linear(8, 4))
    mesh = init_device_mesh("cpu", (world,))
    mlp = parallelize_module(mlp, mesh, {"0": ColwiseParallel(), "2": RowwiseParallel()})
    mlp(torch.ones(2, 4)).sum().backward()
    stage = PipelineStage(nn.Linear(4, 4), stage_index=rank, num_stages=world, device="cpu")
    schedule = Schedule1F1B(stage, n_microbatches=2, loss_fn=torch.nn.functional.mse_loss)
    if rank == 0:
        schedule.step(torch.ones(4, 4))
    else:
        schedule.step(target=torch.zeros(4, 4))
    return "ok"


def test_chapter_9s_rank_code_never_starts_cuda(monkeypatch):
    # A rank forked after its parent used CUDA cannot start CUDA. The ranks are forked only
    # where torch sees no GPU, but DTensor on a CPU mesh and pipelining on the CPU must not
    # try to start CUDA even where it would answer: each rank would hold a CUDA context.
    # Where torch sees a real GPU, this process has run backward (other tests), so its ranks
    # come from the fork server, as every rank there does; elsewhere they are forked, unless
    # this process ran d2lgpu.scale's tracked backward (autograd's device threads: no fork).
    from d2lgpu import _rank_start

    if not torch.cuda.is_available() and not _rank_start._autograd_threads:
        monkeypatch.setenv(ranks.START_ENV_VAR, "fork")
    assert run_ranks(dtensor_and_pipelining, world=2) == ["ok", "ok"]


def test_ranks_are_forked_only_where_torch_sees_no_gpu(monkeypatch, gpus):
    from d2lgpu import _rank_start

    monkeypatch.setattr(_rank_start, "_autograd_threads", False)  # whatever ran before here
    monkeypatch.setattr(_rank_start, "forked_backward_works", lambda: True)
    monkeypatch.delenv(ranks.START_ENV_VAR, raising=False)
    monkeypatch.setattr(torch.backends.mps, "is_available", lambda: False)
    gpus(0)  # a machine without a GPU, also where this one has one
    assert ranks.start_method() == "fork"
    gpus(1)
    assert ranks.start_method() == "forkserver"
    monkeypatch.setenv(ranks.START_ENV_VAR, "fork")
    assert ranks.start_method() == "fork"
    monkeypatch.setenv(ranks.START_ENV_VAR, "spawn")
    with pytest.raises(ValueError, match="D2LGPU_RANKS_START must be one of fork, forkserver"):
        ranks.start_method()


def notebook_cell(source: str) -> dict:
    """Run ``source`` as IPython runs a cell: in ``__main__``'s name, from a file that exists
    only in linecache. Its functions cannot be imported by another process."""
    filename = f"/nonexistent/ipykernel_0/{abs(hash(source))}.py"
    lines = source.splitlines(keepends=True)
    linecache.cache[filename] = (len(source), None, lines, filename)
    namespace = {"__name__": "__main__"}
    exec(compile(source, filename, "exec"), namespace)
    return namespace


CELL = """
import torch
import torch.distributed as dist

scale = torch.tensor([2.0, 3.0])

class Doubler:
    def __call__(self, t):
        return 2 * t

def helper(t):
    return Doubler()(t) * scale

def per_rank(rank, world):
    t = helper(torch.ones(2) * (rank + 1))
    dist.all_reduce(t)
    return t

def broken(rank, world):
    if rank == 1:
        return 1 / 0
    return rank

def stub(model):
    raise NotImplementedError("your code here")

def divides(model):
    return 1 / 0
"""


def test_a_cells_function_runs_in_ranks_a_fork_server_starts(monkeypatch):
    # Where torch sees a GPU the ranks cannot be forked from the kernel; the cell's function,
    # the helper, class and tensor it reads travel by value, and a rank's traceback still
    # shows the cell's own line.
    monkeypatch.setenv(ranks.START_ENV_VAR, "forkserver")
    cell = notebook_cell(CELL)
    results = run_ranks(cell["per_rank"], world=2)
    for t in results:
        torch.testing.assert_close(t, torch.tensor([12.0, 18.0]))  # (2 + 4) * [2, 3]
    with pytest.raises(RankFailed, match=r"(?s)rank 1: raised:.*return 1 / 0.*ZeroDivisionError"):
        run_ranks(cell["broken"], world=2)


def test_a_checkers_hints_are_the_same_from_a_fork_server(monkeypatch):
    monkeypatch.setenv(ranks.START_ENV_VAR, "forkserver")
    cell = notebook_cell(CELL)
    with pytest.raises(NotAttempted, match="your code here"):
        _ranks.run_ranks(cell["stub"])
    with pytest.raises(CheckFailed, match="in your function divides, line 28: `return 1 / 0`"):
        _ranks.run_ranks(cell["divides"])


def test_what_cannot_travel_to_the_ranks_is_named(monkeypatch):
    monkeypatch.setenv(ranks.START_ENV_VAR, "forkserver")
    lock = threading.Lock()

    def holds_a_lock(rank, world):
        with lock:
            return rank

    with pytest.raises(CannotSend, match="cannot send .*holds_a_lock.* to the ranks: TypeError"):
        run_ranks(holds_a_lock)
    with pytest.raises(CheckFailed, match="cannot send"):
        _ranks.run_ranks(lambda model: lock)


def backward_on_the_cpu(rank, world):
    x = torch.ones(3, requires_grad=True)
    (x * (rank + 1)).sum().backward()
    dist.all_reduce(x.grad)
    return x.grad


@pytest.mark.skipif(not torch.cuda.is_available(), reason="requires CUDA")
def test_ranks_run_backward_after_this_process_ran_backward_on_a_gpu():
    # Autograd's per-device threads, started by a backward on the GPU, make any backward in
    # a forked child raise; CUDA used here makes CUDA in a forked child raise.
    w = torch.ones(4, device="cuda", requires_grad=True)
    (w * 2).sum().backward()
    torch.cuda.synchronize()
    assert ranks.start_method() == "forkserver"
    for grad in run_ranks(backward_on_the_cpu, world=2):
        torch.testing.assert_close(grad, torch.full((3,), 3.0))


def test_a_script_that_starts_ranks_at_its_top_level_is_told_to_use_a_main_guard(tmp_path):
    # ranks a fork server starts import the script first; its top-level call cannot start
    # processes there, and the rank dies before it can say why. The two scripts run side by
    # side: each waits most of its time on its fork server's start.
    script = tmp_path / "train.py"
    script.write_text(
        "from d2lgpu.ranks import run_ranks\n"
        "print(run_ranks(lambda rank, world: rank, world=2, timeout_s=120))\n"
    )
    guarded = tmp_path / "guarded.py"
    guarded.write_text(
        "from d2lgpu.ranks import run_ranks\n"
        'if __name__ == "__main__":\n'
        "    print(run_ranks(lambda rank, world: rank * 10, world=2, timeout_s=120))\n"
    )
    env = {**os.environ, ranks.START_ENV_VAR: "forkserver"}
    started = [
        subprocess.Popen(
            [sys.executable, str(path)],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for path in (script, guarded)
    ]
    try:
        # time limits that stop a hang only: on one busy core the two scripts' start (four
        # Pythons importing torch) took more than 120 s
        (out, err), (guarded_out, guarded_err) = [p.communicate(timeout=400) for p in started]
    finally:
        for p in started:
            p.kill()
            p.wait()
    assert started[0].returncode != 0
    assert 'call run_ranks under if __name__ == "__main__":' in err, err[-2000:]
    assert started[1].returncode == 0 and guarded_out.strip() == "[0, 10]", guarded_err[-2000:]


def _backward_on_a_rank(rank, world):
    x = torch.ones(3, requires_grad=True)
    (x * 2).sum().backward()
    return x.grad.sum().item()


# Each starts autograd's device threads, after which a forked rank's backward would raise
# "Unable to handle autograd's threading ... fork": d2lgpu.scale's tracked backward (which
# notes it), and a checker's watch (defaults_kept) around a checkpointed backward under
# FakeTensorMode, as chapter 11's checker runs one (which notes nothing).
THREAD_STARTERS = {
    "scale": (
        "from torch import nn; from d2lgpu import scale\n"
        "scale.per_rank_bytes(lambda: nn.Sequential(nn.Linear(8, 8), nn.Linear(8, 2)), 'fsdp2',"
        " 2, inputs=lambda m: torch.randn(3, 8))\n"
    ),
    "watched_fake_backward": (
        "from torch._subclasses.fake_tensor import FakeTensorMode\n"
        "from torch.utils.checkpoint import checkpoint\n"
        "from d2lgpu.checks._kit_process import defaults_kept\n"
        "with defaults_kept('your plan'), FakeTensorMode():\n"
        "    layer = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.Dropout(0.5))\n"
        "    x = torch.ones(2, 4, requires_grad=True)\n"
        "    checkpoint(layer, x, use_reentrant=False).sum().backward()\n"
    ),
}


@pytest.mark.slow  # a fresh Python: the process must not have started autograd's threads yet
@pytest.mark.skipif(
    _rank_start._accelerator_visible(), reason="where torch sees a GPU, ranks never fork"
)
@pytest.mark.parametrize("starter", sorted(THREAD_STARTERS))
def test_after_autograd_threads_start_ranks_are_not_forked_and_still_run_backward(starter):
    code = (
        "import os, torch; from d2lgpu import ranks\n"
        "os.environ.pop('D2LGPU_RANKS_START', None)\n"
        "assert ranks.start_method() == 'fork', ranks.start_method()\n"
        + THREAD_STARTERS[starter]
        + "assert ranks.start_method() == 'forkserver', ranks.start_method()\n"
        "from tests.test_ranks import _backward_on_a_rank\n"
        "print(ranks.run_ranks(_backward_on_a_rank, world=2))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "D2LGPU_RANKS_START"}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=240
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().splitlines()[-1] == "[6.0, 6.0]", done.stdout


def test_start_method_answers_forkserver_once_autograd_threads_are_noted(monkeypatch):
    from d2lgpu import _rank_start

    monkeypatch.delenv("D2LGPU_RANKS_START", raising=False)
    monkeypatch.setattr(_rank_start, "_autograd_threads", False)
    monkeypatch.setattr(_rank_start, "_accelerator_visible", lambda: False)
    monkeypatch.setattr(_rank_start, "forked_backward_works", lambda: True)
    assert ranks.start_method() == "fork"
    _rank_start.note_autograd_threads()
    assert ranks.start_method() == "forkserver"


def test_start_method_asks_a_forked_child_and_keeps_a_no(monkeypatch):
    """Autograd's threads started by a way nothing noted: a forked child's backward fails,
    so the ranks come from the fork server, now and later (the threads never stop)."""
    from d2lgpu import _rank_start

    asked = []
    monkeypatch.delenv("D2LGPU_RANKS_START", raising=False)
    monkeypatch.setattr(_rank_start, "_autograd_threads", False)
    monkeypatch.setattr(_rank_start, "_accelerator_visible", lambda: False)
    monkeypatch.setattr(_rank_start, "forked_backward_works", lambda: asked.append(1) or False)
    assert ranks.start_method() == "forkserver"
    assert ranks.start_method() == "forkserver"
    assert asked == [1] and _rank_start._autograd_threads


def test_a_forked_childs_backward_is_asked_of_one():
    """In this process a forked child's backward runs, unless autograd's threads started
    before (as an earlier test may have done); a child that fails or hangs answers no."""
    from d2lgpu import _fork_probe

    started = time.monotonic()
    assert _fork_probe.forked_backward_works() in (True, False)
    assert time.monotonic() - started < 5.5
    code = (
        "import os, time, torch\n"
        "from d2lgpu._fork_probe import forked_backward_works as works\n"
        "assert works(), 'a fresh process'\n"
        "torch.autograd.backward = lambda *a, **k: time.sleep(60)\n"
        "torch.Tensor.backward = lambda *a, **k: time.sleep(60)\n"
        "start = time.monotonic(); assert not works(timeout_s=0.5); print(time.monotonic() - start)\n"
        "torch.Tensor.backward = lambda *a, **k: 1 / 0\n"
        "assert not works()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert float(done.stdout.split()[-1]) < 5, done.stdout


def test_a_reductions_name_is_its_reduce_op_or_what_torch_prints():
    for name in ("SUM", "AVG", "PRODUCT", "MIN", "MAX"):
        assert ranks._op_name(getattr(dist.ReduceOp, name)) == name
    assert ranks._op_name(dist.ReduceOp.BAND) == str(dist.ReduceOp.BAND) != "SUM"


def test_a_ranks_exception_travels_as_its_whole_traceback():
    try:
        raise ValueError("rank 1 read the wrong shard")
    except ValueError as raised:
        error = raised
    status, text = ranks._traceback_reply(error)
    assert status == "error"
    assert text == "".join(__import__("traceback").format_exception(error)), text
    assert text.endswith("ValueError: rank 1 read the wrong shard\n"), text


def _reply(error):
    return "mine", repr(error)


def _as_a_rank(monkeypatch, tmp_path, fn, join=None):
    """``_rank_main`` run in this process as the only rank of a world of one: what it sent,
    the exit code it left with, and whether its group was left behind."""
    import multiprocessing
    import types

    import cloudpickle

    exits = []
    monkeypatch.setattr(ranks, "os", types.SimpleNamespace(_exit=exits.append))
    if join is not None:
        monkeypatch.setattr(ranks, "join_gloo", join)
    reader, writer = multiprocessing.Pipe(duplex=False)
    tmp_path.mkdir(exist_ok=True)
    threads = torch.get_num_threads()  # a rank takes one CPU thread: this process gets its own back
    try:
        ranks._rank_main(0, 1, str(tmp_path / "store"), fn, writer, 30.0, _reply)
        sent = cloudpickle.loads(reader.recv_bytes()) if reader.poll(5) else None
        left = dist.is_initialized()
    finally:
        if dist.is_initialized():
            dist.destroy_process_group()
        reader.close()
        torch.set_num_threads(threads)
    assert writer.closed
    return sent, exits, left


def test_a_rank_sends_its_outcome_leaves_its_group_closes_and_exits_at_once(monkeypatch, tmp_path):
    seen = []

    def fn(rank, world):
        group = dist.distributed_c10d._get_default_group()
        timeout = group._get_backend(torch.device("cpu")).options._timeout
        backends = dist.distributed_c10d._get_pg_config()["backend_config"]
        seen.append((rank, world, dist.get_world_size(), torch.get_num_threads(), timeout))
        seen.append(backends)
        return {"rank": rank}

    sent, exits, left = _as_a_rank(monkeypatch, tmp_path, fn)
    # gloo for every device (never NCCL), and collectives that give up after timeout_s
    assert seen == [(0, 1, 1, 1, timedelta(seconds=30)), "cpu:gloo,cuda:gloo"], seen
    assert sent == ("ok", {"rank": 0}) and exits == [0] and not left

    def raises(rank, world):
        raise KeyError("shard")

    sent, exits, left = _as_a_rank(monkeypatch, tmp_path / "2", raises)
    assert sent == ("mine", "KeyError('shard')") and exits == [0] and not left

    def cannot_join(*args):
        raise RuntimeError("the store's file is gone")

    sent, exits, _ = _as_a_rank(monkeypatch, tmp_path / "3", fn, join=cannot_join)
    assert sent == ("mine", 'RuntimeError("the store\'s file is gone")') and exits == [0]


def test_a_rank_loads_what_it_runs_or_says_it_could_not(monkeypatch):
    import multiprocessing

    import cloudpickle

    from d2lgpu import _rank_start

    exits, calls = [], []

    class Exited(Exception):
        pass

    def leave(code):  # os._exit, as far as what follows it is concerned
        exits.append(code)
        raise Exited

    monkeypatch.setattr(_rank_start.os, "_exit", leave)

    def main(*args):
        calls.append(args)

    cell = notebook_cell("def in_a_cell(rank, world):\n    return rank + world\n")
    reader, writer = multiprocessing.Pipe(duplex=False)
    _rank_start._rank_entry(main, 1, 2, "store", _rank_start._Packed(cell["in_a_cell"]), writer, 9)
    ((rank, world, store, fn, conn, extra),) = calls
    assert (rank, world, store, conn, extra) == (1, 2, "store", writer, 9) and fn(1, 2) == 3
    assert not exits and not writer.closed
    calls.clear()
    _rank_start._rank_entry(main, 0, 2, "store", "not packed", writer, 9)
    assert calls == [(0, 2, "store", "not packed", writer, 9)]

    class Broken:
        def __reduce__(self):
            return (int, ("not a number",))  # loading it raises ValueError

    calls.clear()
    with pytest.raises(Exited):
        _rank_start._rank_entry(main, 0, 2, "store", _rank_start._Packed(Broken()), writer, 9)
    status, text = cloudpickle.loads(reader.recv_bytes())
    assert status == "error" and text.startswith("could not load what it runs:\nTraceback"), text
    assert "ValueError: invalid literal for int()" in text
    assert not calls and exits == [0] and writer.closed


def test_a_gpu_is_seen_through_cuda_or_apples_mps(monkeypatch):
    from d2lgpu import _rank_start

    for cuda, mps, seen in [(False, False, False), (True, False, True), (False, True, True)]:
        monkeypatch.setattr(torch.cuda, "is_available", lambda cuda=cuda: cuda)
        monkeypatch.setattr(torch.backends.mps, "is_available", lambda mps=mps: mps)
        assert _rank_start._accelerator_visible() is seen, (cuda, mps)


def test_a_module_an_extension_made_reaches_a_rank_as_the_ranks_own(monkeypatch):
    # torch._C._functions (read by `once_differentiable`) and torch.ops.aten are not in
    # sys.modules; sent by value, the copy could not be loaded by a rank the fork server
    # starts. torch.ops, a ModuleType subclass, could not be sent at all.
    import sys
    import types

    from d2lgpu import _rank_start

    cell = notebook_cell(
        "import torch\n"
        "from torch.autograd.function import once_differentiable\n"
        "def make():\n"
        "    class Twice(torch.autograd.Function):\n"
        "        @staticmethod\n"
        "        def forward(ctx, t):\n"
        "            return t * 2\n"
        "        @staticmethod\n"
        "        @once_differentiable\n"
        "        def backward(ctx, g):\n"
        "            return torch.ops.aten.mul(g, 2)\n"
        "    return Twice\n"
        "Twice = make()\n"
        "def in_a_cell(rank, world):\n"
        "    return Twice\n"
    )
    packed = _rank_start._Packed(cell["in_a_cell"])
    assert len(packed.blob) < 40_000, len(packed.blob)  # no copy of a module, classes and all
    twice = packed.unpack()(0, 1)
    wrapper = twice._backward_cls._forward_cls.backward
    assert wrapper.__globals__["_functions"] is torch._C._functions
    assert wrapper.__wrapped__.__globals__["torch"] is torch
    x = torch.ones(3, requires_grad=True)
    twice.apply(x).sum().backward()
    assert x.grad.tolist() == [2.0, 2.0, 2.0]

    assert _rank_start.module_at("torch._C._functions") is torch._C._functions
    assert _rank_start.module_at("torch.distributed") is torch.distributed
    by_name = _rank_start._sent_by_name
    assert by_name(torch._C._functions) and by_name(torch.ops.aten)
    assert by_name(torch.ops)  # a ModuleType subclass, which cloudpickle cannot send
    assert not by_name(torch.distributed)  # in sys.modules: cloudpickle sends its name
    assert not by_name(types.ModuleType("no_such_top.part"))
    assert not by_name(types.ModuleType("torch.no_such_part"))
    stand_in = types.ModuleType("torch._C._functions")  # the name reaches another object
    assert not by_name(stand_in)
    nameless = types.ModuleType("torch._C._functions")
    nameless.__name__ = None
    assert not by_name(nameless)
    monkeypatch.delitem(sys.modules, "torch.distributed")
    assert by_name(torch.distributed)


def test_a_cells_cached_function_reaches_ranks_a_fork_server_starts_with_an_empty_cache(
    monkeypatch,
):
    # a cell's @functools.cache is pickled by its name, which a fresh rank's __main__ lacks;
    # it travels as its function under a new cache, empty in each run's ranks
    monkeypatch.setenv(ranks.START_ENV_VAR, "forkserver")
    cell = notebook_cell(
        "import functools\n"
        "import torch.distributed as dist\n"
        "@functools.lru_cache(maxsize=4)\n"
        "def world():\n"
        "    return dist.get_world_size()\n"
        "def per_rank(rank, n):\n"
        "    return world(), world.cache_info().hits, world.cache_parameters()['maxsize']\n"
    )
    assert run_ranks(cell["per_rank"], world=2) == [(2, 0, 4)] * 2
    assert run_ranks(cell["per_rank"], world=3) == [(3, 0, 4)] * 3


def test_a_cells_weak_containers_reach_ranks_a_fork_server_starts_empty(monkeypatch):
    # a WeakKeyDictionary, WeakValueDictionary or WeakSet cannot be pickled: a cache of this
    # process's objects, it travels empty (round 28's r28_c01 keeps a buffer per model so)
    monkeypatch.setenv(ranks.START_ENV_VAR, "forkserver")
    cell = notebook_cell(
        "import weakref\n"
        "import torch\n"
        "BUFFERS = weakref.WeakKeyDictionary()\n"
        "NAMED = weakref.WeakValueDictionary()\n"
        "SEEN = weakref.WeakSet()\n"
        "KEEP = torch.zeros(1)\n"
        "BUFFERS[KEEP], NAMED['keep'] = 1, KEEP\n"
        "SEEN.add(KEEP)\n"
        "def per_rank(rank, n):\n"
        "    key = torch.zeros(1)\n"
        "    BUFFERS[key] = rank\n"
        "    return type(BUFFERS).__name__, len(BUFFERS), len(NAMED), len(SEEN)\n"
    )
    assert run_ranks(cell["per_rank"], world=2) == [("WeakKeyDictionary", 1, 0, 0)] * 2


def test_a_packages_cached_function_travels_by_its_name(tmp_path, monkeypatch):
    # only a cell's cache travels as its function: a module another process can import sends
    # its own, by name (its module's name holds the cache, not the function inside)
    import cloudpickle

    from d2lgpu._rank_start import _Packed

    name = f"cachedpkg_{abs(hash(str(tmp_path)))}"
    (tmp_path / f"{name}.py").write_text(
        "import functools\n@functools.cache\ndef world():\n    return 2\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    cached = __import__(name).world
    assert cloudpickle.loads(_Packed(cached).blob)[1] is cached
