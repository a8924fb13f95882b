"""d2lgpu.ranks: forked gloo ranks return what the function returned, rank by rank; a rank
that raises or never finishes is reported, not hung; all-reduces are counted with their
shapes, bytes and reduction."""

import pytest
import torch
import torch.distributed as dist

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
