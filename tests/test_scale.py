"""d2lgpu.scale: one rank's memory at any world size, checked against formulas and real ranks."""

import dataclasses

import pytest
import torch
import torch.distributed as dist
from torch import nn

from d2lgpu import _fake_dist
from d2lgpu._scale_plans import MasterAdam, activation_formula
from d2lgpu.llama import Decoder, DecoderConfig, parameter_count
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
    return {plan: per_rank_bytes(Stack, plan, 8) for plan in PLANS if plan != "tp"}


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


@pytest.mark.parametrize("plan", ["ddp", "zero1", "fsdp2"])
def test_the_tracker_keeping_the_global_peak_only_measures_what_torchs_own_does(
    fake8, plan, monkeypatch
):
    # torch's tracker, which also keeps every module's own peak after each operation
    monkeypatch.setattr(_fake_dist, "_global_peak_only", lambda tracker_class: tracker_class)
    assert per_rank_bytes(Stack, plan, 8) == fake8[plan]


def test_the_tracker_keeping_the_global_peak_only_keeps_its_modules():
    from torch.distributed._tools.mem_tracker import MemTracker

    model = Stack()
    optimizer = torch.optim.Adam(model.parameters())
    tracker = _fake_dist.memory_tracker(model, optimizer, fsdp=False)
    assert isinstance(tracker, MemTracker) and type(tracker).__name__ == "GlobalPeakMemTracker"
    with tracker:
        model(model.example_input()).sum().backward()
        optimizer.step()
    assert len(tracker.memory_tracking) == DEPTH + 1  # the Sequential and its layers
    peak = next(iter(tracker.get_tracker_snapshot("peak").values()))["Total"]
    assert peak >= 2 * 4 * N_PARAMS  # at least the parameters and their gradients


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
        formula_bytes(10, "zero3", 8)
    with pytest.raises(ValueError, match="precision must be one of 'fp32', 'bf16'"):
        formula_bytes(10, "ddp", 8, precision="fp16")


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


# A decoder small enough to train in a second, with every piece the options change.
TINY = DecoderConfig(
    dim=64, n_layers=2, n_heads=4, n_kv_heads=4, ffn_dim=128, vocab=256, seq_len=64
)
TINY_TENSORS = 2 * 9 + 3  # nine per block; the embedding, the final norm, the output projection
NORMS = (2 * TINY.n_layers + 1) * TINY.dim  # the RMSNorms' gains: what TP keeps whole


def tiny():
    return Decoder(TINY)


def test_checkpointing_keeps_only_each_blocks_input():
    long = dataclasses.replace(TINY, seq_len=512)  # activations above the state: the peak
    off, on = (
        per_rank_bytes(lambda: Decoder(long), "fsdp2", 4, checkpoint=c) for c in (False, True)
    )
    for kind in ("params", "grads", "optimizer"):
        assert on[kind] == off[kind], kind
    # the peak falls at the end of forward, and holds what the formula counts, to the byte
    assert off["tracker"]["Activation"] == activation_formula(long, 1)["saved"]
    saved = activation_formula(long, 1, checkpoint=True)
    assert on["tracker"]["Activation"] <= saved["saved"] + saved["recompute"]
    assert (
        off["peak"] - on["peak"]
        > activation_formula(long, 1)["saved"] - saved["saved"] - saved["recompute"]
    )


def test_activation_formula_counts():
    d, t = TINY.dim, TINY.seq_len
    full = activation_formula(TINY, 2)
    # input, norm 2d+1, q k v, attention output, lse (4 heads), residual, norm, MLP 4f
    assert full["block"] == 4 * 2 * t * (d + 2 * d + 1 + 3 * d + d + 4 + d + 2 * d + 1 + 4 * 128)
    assert full["head"] == 4 * 2 * t * (3 * d + 1 + 256)
    ckpt = activation_formula(TINY, 2, checkpoint=True)
    assert ckpt["block"] == 4 * 2 * t * d and ckpt["recompute"] == full["block"]
    assert activation_formula(TINY, 1, tp=2)["block"] < full["block"] / 2


def test_bf16_keeps_2_2_12_bytes_per_parameter_under_ddp_and_zero1():
    psi = parameter_count(TINY)
    ddp = per_rank_bytes(tiny, "ddp", 8, precision="bf16")
    assert (ddp["params"], ddp["grads"]) == (2 * psi, 2 * psi)
    # masters and moments in the optimizer's state, plus one 4-byte step counter per tensor
    assert ddp["optimizer"] == 12 * psi + 4 * TINY_TENSORS
    assert ddp["tracker"]["Optstate"] >= ddp["optimizer"]  # the tracker files masters there
    zero1 = per_rank_bytes(tiny, "zero1", 8, precision="bf16")
    assert zero1["params"] == 2 * psi
    fp32_rank0 = per_rank_bytes(tiny, "zero1", 8)["optimizer"]
    # the same whole tensors as in fp32: 12 bytes each instead of 8, the counters alike
    counters = fp32_rank0 % 8
    assert zero1["optimizer"] - counters == (fp32_rank0 - counters) * 12 // 8


def test_bf16_under_fsdp2_keeps_fp32_shards_and_gathers_bf16():
    psi = parameter_count(TINY)
    fp32, bf16 = (per_rank_bytes(tiny, "fsdp2-keep", 4, precision=p) for p in ("fp32", "bf16"))
    # the sharded fp32 parameters are the masters: the same bytes as fp32 training
    for kind in ("params", "grads", "optimizer"):
        assert (
            bf16[kind]
            == fp32[kind]
            == formula_bytes(psi, "fsdp2", 4)[kind]
            + (4 * TINY_TENSORS if kind == "optimizer" else 0)
        ), kind
    # what is gathered for compute is bf16: half of fp32's gathered parameters
    assert bf16["tracker"]["Unsharded Param"] * 2 == fp32["tracker"]["Unsharded Param"] == 4 * psi


def test_master_adam_is_adam_on_fp32_masters():
    torch.manual_seed(0)
    weight = torch.randn(8, 8)
    low = nn.Parameter(weight.to(torch.bfloat16))
    master = nn.Parameter(low.detach().float())
    ours, adam = MasterAdam([low], lr=0.1), torch.optim.Adam([master], lr=0.1)
    for _ in range(3):
        grad = torch.randn(8, 8).to(torch.bfloat16)
        low.grad, master.grad = grad, grad.float()
        ours.step()
        adam.step()
    torch.testing.assert_close(ours.state[low]["master"], master.detach())
    torch.testing.assert_close(low.detach(), master.detach().to(torch.bfloat16))
    assert not torch.equal(ours.state[low]["master"], weight.to(torch.bfloat16).float())


def test_tp_splits_the_layers_and_keeps_the_norms_whole():
    psi = parameter_count(TINY)
    got = per_rank_bytes(tiny, "tp", 8, tp=2)
    # everything but the norms split 2 ways by TP and 4 by FSDP2; the norms 4 ways only
    want = 4 * ((psi - NORMS) // 8 + NORMS // 4)
    assert got["params"] == got["grads"] == want
    assert got["optimizer"] == 2 * want + 4 * TINY_TENSORS
    assert want - formula_bytes(psi, "tp", 8, tp=2)["params"] == 4 * NORMS * (1 / 4 - 1 / 8)


def test_tp_fake_and_real_agree_on_state_and_on_the_peak():
    wide = dataclasses.replace(TINY, vocab=4096, seq_len=16)  # large vocabulary tensors
    fake, real = (
        per_rank_bytes(lambda: Decoder(wide), "tp", 8, tp=2, fake=f) for f in (True, False)
    )
    for kind in ("params", "grads", "optimizer"):
        assert fake[kind] == real[kind], kind
    # The peak of the measured step only: the warm-up step's, where a process first meets
    # DTensor's operators under fake tensors, held global-shape tensors no real rank holds.
    assert fake["peak"] == real["peak"]
    assert fake["tracker"] == real["tracker"]


def test_checkpointing_and_bf16_agree_fake_and_real():
    for kw in ({"checkpoint": True}, {"precision": "bf16"}):
        fake, real = (per_rank_bytes(tiny, "fsdp2", 4, fake=f, **kw) for f in (True, False))
        for kind in ("params", "grads", "optimizer", "peak"):
            assert fake[kind] == real[kind], (kw, kind)


@pytest.mark.parametrize(
    ("args", "kwargs", "error", "match"),
    [
        ((tiny, "ddp", 8), {"checkpoint": "yes"}, TypeError, "checkpoint must be True or False"),
        ((tiny, "ddp", 8), {"precision": "fp16"}, ValueError, "precision must be one of 'fp32', 'bf16'"),
        ((tiny, "ddp", 8), {"tp": 2}, ValueError, "plan 'ddp' takes tp=1, got tp=2"),
        ((tiny, "tp", 8), {}, ValueError, "plan 'tp' needs a degree tp >= 2"),
        ((tiny, "tp", 8), {"tp": 3}, ValueError, r"divides world_size \(8\), got tp=3"),
        ((tiny, "tp", 8), {"tp": 0}, ValueError, "tp must be an int >= 1"),
        ((tiny, "tp", 16), {"tp": 8}, ValueError, "tp=8 must divide the model's key-value heads"),
        ((Stack, "tp", 8), {"tp": 2}, TypeError, "model_fn must return one, got Stack"),
        ((Stack, "ddp", 8), {"checkpoint": True}, ValueError, "shard_units"),
    ],
)  # fmt: skip
def test_bad_options_name_the_argument(args, kwargs, error, match):
    with pytest.raises(error, match=match):
        per_rank_bytes(*args, **kwargs)
    assert not dist.is_initialized()


def test_formula_for_bf16_and_tp():
    assert formula_bytes(1000, "ddp", 8, precision="bf16") == {
        "params": 2000,
        "grads": 2000,
        "optimizer": 12000,
    }
    assert formula_bytes(1000, "zero1", 8, precision="bf16")["optimizer"] == 1500
    assert formula_bytes(1000, "fsdp2", 8, precision="bf16") == {
        "params": 250,
        "grads": 250,
        "optimizer": 1500,
    }
    assert formula_bytes(1000, "tp", 8, tp=2) == formula_bytes(1000, "fsdp2", 8)


class HeavyFirstStep(Stack):
    """Stack, whose first forward alone holds a large temporary until it returns."""

    TEMPORARY = 64 * N_PARAMS  # bytes: far above anything a step of Stack holds

    def forward(self, x):
        first = not getattr(self, "stepped", False)
        self.stepped = True
        held = torch.empty(self.TEMPORARY // 4) if first else None
        return super().forward(x) + (0 if held is None else held[:1].sum() * 0)


@pytest.mark.parametrize("plan", ["ddp", "fsdp2"])
def test_the_peak_is_the_measured_steps_not_the_warm_ups(fake8, plan):
    # The warm-up step is where a process first meets an operator (DTensor then makes
    # global-shape tensors the tracker counts): its peak must not be the answer's.
    heavy = per_rank_bytes(HeavyFirstStep, plan, 8)
    assert heavy["peak"] == fake8[plan]["peak"], (heavy["peak"], fake8[plan]["peak"])
    assert heavy["peak"] < HeavyFirstStep.TEMPORARY


def test_restart_peak_starts_the_global_peak_from_what_is_held_now():
    model = Stack()
    optimizer = torch.optim.Adam(model.parameters())
    tracker = _fake_dist.memory_tracker(model, optimizer, fsdp=False)
    with tracker:
        held = torch.empty(10**6)  # 4 MB, held across the restart
        spike = torch.empty(10**7)  # 40 MB, gone before it
        del spike
        _fake_dist.restart_peak(tracker)
        model(model.example_input()).sum().backward()
        del held
    peak = next(iter(tracker.get_tracker_snapshot("peak").values()))["Total"]
    assert 4 * 10**6 <= peak < 4 * 10**7, peak


def test_restart_peak_names_a_tracker_that_keeps_its_peak_elsewhere():
    class Elsewhere:
        def reset_mod_stats(self):
            pass

    with pytest.raises(_fake_dist.MissingPiece, match="_peak_mem_snap"):
        _fake_dist.restart_peak(Elsewhere())


def test_planning_leaves_pythons_excepthook_as_it_was():
    # torch's init_process_group wraps sys.excepthook (a "[rank0]: " prefix) on every call
    import sys

    before = sys.excepthook
    with _fake_dist.fake_process_group(8):
        pass
    with _fake_dist.fake_process_group(4):
        pass
    assert sys.excepthook is before
