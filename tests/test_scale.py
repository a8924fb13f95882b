"""d2lgpu.scale: one rank's memory at any world size, checked against formulas and real ranks."""

import pytest
import torch
import torch.distributed as dist
from torch import nn

from d2lgpu import _fake_dist
from d2lgpu.ranks import run_ranks
from d2lgpu.scale import (
    PLANS,
    _train_and_measure,
    formula_bytes,
    per_rank_bytes,
    zero1_state_bytes,
)

WIDTH, DEPTH = 256, 8
N_PARAMS = DEPTH * (WIDTH * WIDTH + WIDTH)


class Stack(nn.Sequential):
    """DEPTH linear layers: 2 * DEPTH tensors, each small enough for ZeRO-1 to spread."""

    def __init__(self):
        super().__init__(*[nn.Linear(WIDTH, WIDTH) for _ in range(DEPTH)])

    def example_input(self):
        return torch.randn(4, WIDTH)


def adam_steps(n_tensors: int, world: int = 1) -> int:
    """Adam's ``step`` counters: one fp32 scalar per tensor it updates."""
    return 4 * n_tensors


@pytest.fixture(scope="module")
def fake8():
    return {plan: per_rank_bytes(Stack, plan, 8) for plan in PLANS}


def test_ddp_matches_the_formula_exactly(fake8):
    want = formula_bytes(N_PARAMS, "ddp", 8)
    got = fake8["ddp"]
    assert got["params"] == want["params"]
    assert got["grads"] == want["grads"]
    assert got["optimizer"] == want["optimizer"] + adam_steps(2 * DEPTH)
    assert got["peak"] >= got["params"] + got["grads"] + got["optimizer"]


@pytest.mark.parametrize("plan", ["fsdp2", "fsdp2-keep"])
def test_fsdp2_shards_everything_by_world_size(fake8, plan):
    want = formula_bytes(N_PARAMS, plan, 8)
    got = fake8[plan]
    assert got["params"] == want["params"]
    assert got["grads"] == want["grads"]
    # the step counters are whole on every rank; the moments are sharded
    assert got["optimizer"] == want["optimizer"] + adam_steps(2 * DEPTH)


def test_keeping_parameters_gathered_raises_the_peak_only(fake8):
    keep, reshard = fake8["fsdp2-keep"], fake8["fsdp2"]
    assert keep["params"] == reshard["params"]
    assert keep["peak"] > reshard["peak"]
    # every layer's full parameters sit gathered at once between forward and backward
    assert keep["tracker"]["Unsharded Param"] == 4 * N_PARAMS


def test_zero1_gives_each_rank_whole_tensors(fake8):
    got = fake8["zero1"]
    assert got["params"] == fake8["ddp"]["params"] and got["grads"] == fake8["ddp"]["grads"]
    # 16 tensors over 8 ranks: rank 0 owns whole tensors, not exactly one 8th of the moments
    assert 0 < got["optimizer"] < fake8["ddp"]["optimizer"] / 4
    assert got["optimizer"] % (8 * (WIDTH + 1)) in (0, 4, 8)  # moments of whole rows, counters


def test_zero1_state_bytes_is_what_rank_0_measures(fake8):
    ranks = zero1_state_bytes(Stack, 8)
    assert len(ranks) == 8
    assert ranks[0] == fake8["zero1"]["optimizer"]
    # every tensor is dealt once: the ranks' moments and counters add up to DDP's state
    assert sum(ranks) == fake8["ddp"]["optimizer"]


def test_zero1_state_bytes_gives_a_big_tensor_to_one_rank():
    class Lopsided(nn.Module):
        def __init__(self):
            super().__init__()
            self.big, self.small = nn.Linear(64, 64, bias=False), nn.Linear(4, 4, bias=False)

    ranks = zero1_state_bytes(Lopsided, 2)
    assert sorted(ranks) == [8 * 16 + 4, 8 * 64 * 64 + 4]


@pytest.mark.parametrize(
    "args, error, match",
    [((Stack(), 8), TypeError, "model_fn"), ((Stack, 0), ValueError, "world_size"),
     ((lambda: 3, 2), TypeError, "nn.Module")],
)  # fmt: skip
def test_zero1_state_bytes_bad_input(args, error, match):
    with pytest.raises(error, match=match):
        zero1_state_bytes(*args)


def test_collective_bytes_are_the_plans_bytes():
    for plan, want in (
        ("ddp", {"all_reduce": 4}),
        ("zero1", {"all_reduce": 4, "broadcast": 4}),
        ("fsdp2", {"all_gather_single": 8, "reduce_scatter_single": 4}),
    ):
        with _fake_dist.collective_bytes() as sent:
            per_rank_bytes(Stack, plan, 8)
        # two steps; FSDP2 gathers before forward and again before backward
        got = {name: sum(sizes) / (2 * N_PARAMS) for name, sizes in sent.items()}
        assert got == want, (plan, got)


def test_collective_bytes_puts_the_functions_back():
    before = dist.all_reduce
    with _fake_dist.fake_process_group(2), _fake_dist.collective_bytes() as sent:
        assert dist.all_reduce is not before
        dist.all_reduce(torch.ones(3))
        dist.broadcast(torch.ones(2, dtype=torch.float64), src=0)
    assert dist.all_reduce is before
    assert dict(sent) == {"all_reduce": [12], "broadcast": [16]}


def test_fake_tensors_and_real_tensors_agree():
    for plan in ("ddp", "zero1", "fsdp2"):
        real = per_rank_bytes(Stack, plan, 4, fake=False)
        fake = per_rank_bytes(Stack, plan, 4, fake=True)
        for key in ("params", "grads", "optimizer", "peak"):
            assert real[key] == fake[key], (plan, key, real[key], fake[key])


def test_memory_falls_with_the_world_size_under_fsdp2():
    small, large = (per_rank_bytes(Stack, "fsdp2", w)["params"] for w in (2, 64))
    assert small == 4 * N_PARAMS / 2
    assert large == pytest.approx(4 * N_PARAMS / 64, rel=0.01)


def test_the_fake_group_is_gone_afterwards():
    per_rank_bytes(Stack, "ddp", 2)
    assert not dist.is_initialized()


def test_a_model_fn_that_raises_leaves_no_group_behind():
    def broken():
        raise RuntimeError("no model")

    with pytest.raises(RuntimeError, match="no model"):
        per_rank_bytes(broken, "ddp", 2)
    assert not dist.is_initialized()


@pytest.mark.parametrize(
    ("args", "kwargs", "error", "match"),
    [
        ((Stack, "zero3", 8), {}, ValueError, "plan must be one of 'ddp', 'zero1'"),
        ((Stack, "DDP", 8), {}, ValueError, "plan must be one of"),
        ((Stack, "ddp", 0), {}, ValueError, "world_size"),
        ((Stack, "ddp", 2.0), {}, ValueError, "world_size must be an int >= 1, got 2.0"),
        ((Stack(), "ddp", 2), {}, TypeError, "model_fn must be a zero-argument callable"),
        ((Stack, "ddp", 2), {"fake": "yes"}, TypeError, "fake must be True or False"),
        ((Stack, "ddp", 2), {"inputs": 3}, TypeError, "inputs must be a callable"),
        ((lambda: 3, "ddp", 2), {}, TypeError, "model_fn must return an nn.Module, got int"),
        ((lambda: nn.Linear(2, 2), "ddp", 2), {}, ValueError, "inputs must be given"),
    ],
)
def test_bad_input_names_the_argument(args, kwargs, error, match):
    with pytest.raises(error, match=match):
        per_rank_bytes(*args, **kwargs)
    assert not dist.is_initialized()


def test_formula_bad_input():
    with pytest.raises(ValueError, match="n_params"):
        formula_bytes(0, "ddp", 8)
    with pytest.raises(ValueError, match="plan must be one of"):
        formula_bytes(10, "tp", 8)


def test_formula_table():
    assert formula_bytes(1000, "ddp", 8) == {"params": 4000, "grads": 4000, "optimizer": 8000}
    assert formula_bytes(1000, "zero1", 8) == {"params": 4000, "grads": 4000, "optimizer": 1000}
    assert formula_bytes(1000, "fsdp2", 8) == {"params": 500, "grads": 500, "optimizer": 1000}


def test_an_existing_group_is_not_replaced(tmp_path):
    store = dist.FileStore(str(tmp_path / "store"), 1)
    dist.init_process_group("gloo", store=store, rank=0, world_size=1)
    try:
        with pytest.raises(RuntimeError, match="already initialized"):
            per_rank_bytes(Stack, "ddp", 2)
    finally:
        dist.destroy_process_group()


def test_a_missing_piece_names_itself_and_the_torch_version():
    version = torch.__version__.replace("+", r"\+")
    with pytest.raises(_fake_dist.MissingPiece, match=rf"torch {version} lacks no\.such\.Thing"):
        _fake_dist._need("no.such", "Thing", "a test")
    with pytest.raises(_fake_dist.MissingPiece, match="lacks torch.distributed.NoSuchName"):
        _fake_dist._need("torch.distributed", "NoSuchName", "a test")


def test_schedule_ops_one_list_per_rank():
    ops = _fake_dist.schedule_ops("1F1B", 4, 8)
    assert len(ops) == 4
    kinds = [str(a)[1:].rstrip("0123456789") for a in ops[0] if a is not None]
    # 8 forwards and 8 backwards, then the gradients' reduction
    assert kinds == ["F"] * 4 + ["B", "F"] * 4 + ["B"] * 4 + ["REDUCE_GRAD"], kinds


def _real_rank(plan):
    def run(rank, world):
        from torch.distributed.device_mesh import init_device_mesh

        torch.manual_seed(0)
        mesh = init_device_mesh("cpu", (world,)) if plan.startswith("fsdp2") else None
        return _train_and_measure(Stack, plan, mesh, False, None)

    return run


@pytest.mark.slow
@pytest.mark.parametrize("plan", ["ddp", "fsdp2"])
def test_the_fake_group_agrees_with_real_gloo_ranks(plan, monkeypatch):
    """DDP (same communication hook) and FSDP2 on 2 real gloo ranks, and on the fake group."""
    # this process has run backward already: ranks forked from it could not (autograd's threads)
    monkeypatch.setenv("D2LGPU_RANKS_START", "forkserver")
    real = run_ranks(_real_rank(plan), world=2, timeout_s=120)
    fake = per_rank_bytes(Stack, plan, 2)
    for rank, measured in enumerate(real):
        for key in ("params", "grads", "optimizer"):
            assert measured[key] == pytest.approx(fake[key], rel=0.01), (rank, key)
