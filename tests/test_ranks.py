"""d2lgpu.ranks: forked gloo ranks return what the function returned, rank by rank; a rank
that raises or never finishes is reported, not hung; all-reduces are counted with their
shapes, bytes and reduction."""

import pytest
import torch
import torch.distributed as dist

from d2lgpu.checks.ch01_devices import fake_gpus
from d2lgpu.ranks import RankFailed, count_all_reduces, run_ranks


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


def test_chapter_9s_rank_code_never_starts_cuda():
    # On a GPU machine the notebook's kernel has used CUDA before it forks the ranks: a
    # rank that initialized CUDA would fail. DTensor on a CPU mesh and pipelining on the
    # CPU must not try.
    assert run_ranks(dtensor_and_pipelining, world=2) == ["ok", "ok"]
