"""d2lgpu.plan and its two halves: the memory measured on a rank's stage and scaled by blocks,
checked against whole measurements, and the step-time model's parts."""

import dataclasses

import pytest

from d2lgpu import _plan_stage as stage_model
from d2lgpu._plan_stage import state_formula as _state_formula
from d2lgpu._plan_stage import transient as _transient
from d2lgpu._plan_time import GPUS, INFINIBAND, MFU, gpu_memory, link_of
from d2lgpu.llama import CONFIGS, DecoderConfig, flops_per_token
from d2lgpu.plan import (
    Plan,
    _activations,
    as_plan,
    best_plan,
    candidates,
    fits,
    memory,
    plan_problems,
    step_time,
)
from d2lgpu.scale import per_rank_bytes

# Small enough to build for real, shaped like the family: grouped-query attention, SwiGLU.
TINY = DecoderConfig(dim=64, n_layers=6, n_heads=4, n_kv_heads=2, ffn_dim=96, vocab=128, seq_len=32)


@pytest.mark.parametrize("tp, stage, pp", [(1, 0, 1), (2, 0, 2), (2, 1, 2)])
@pytest.mark.parametrize("sharding, dp", [("ddp", 8), ("zero1", 8), ("zero1", 3), ("fsdp2", 3)])
def test_the_state_counted_from_shapes_is_the_trackers_scaled_by_blocks(
    tp, stage, pp, sharding, dp
):
    measured = stage_model.state_bytes(TINY, tp, stage, pp, sharding, dp)
    counted = _state_formula(TINY, tp, stage, pp, sharding, dp)
    assert {k: measured[k] for k in counted} == counted


def test_the_state_scaled_from_one_and_two_blocks_is_the_whole_stages():
    # per_rank_bytes on the whole 3-block stage, against state_bytes' two small ones scaled
    whole = per_rank_bytes(lambda: stage_model.RankStage(TINY, 2, 0, 2, 3), "fsdp2", 3)
    scaled = stage_model.state_bytes(TINY, 2, 0, 2, "fsdp2", 3)
    assert {k: whole[k] for k in ("params", "grads", "optimizer")} == {
        k: scaled[k] for k in ("params", "grads", "optimizer")
    }


@pytest.mark.parametrize("checkpointing", [False, True])
@pytest.mark.parametrize("stage, pp", [(0, 1), (0, 2), (1, 2)])
def test_activations_scaled_by_blocks_match_a_whole_measurement(checkpointing, stage, pp):
    blocks = TINY.n_layers // pp
    one, two = (
        stage_model.activation_peak(TINY, 2, stage, pp, k, 3, checkpointing) for k in (1, 2)
    )
    whole = stage_model.activation_peak(TINY, 2, stage, pp, blocks, 3, checkpointing)
    assert one + (blocks - 1) * (two - one) == pytest.approx(whole, rel=0.01)


@pytest.mark.parametrize(
    "plan",
    [
        Plan(2, 2, 1, "ddp", 2, False),
        Plan(1, 4, 1, "ddp", 1, True),
        Plan(1, 1, 2, "fsdp2", 2, False),
        Plan(1, 2, 2, "ddp", 4, True),
    ],
)
def test_the_searchs_activations_agree_with_the_plans_own_measurement(plan):
    # measured: the plan's own stages; not: one sequence at tp 1 and 2, scaled. The 1B
    # model's shapes (fake tensors cost nothing), cut to 4 layers.
    config = dataclasses.replace(CONFIGS["1B"], n_layers=4)
    for stage in {0, plan.pp - 1}:
        fast = _activations(config, plan, 16, stage, measured=False)
        exact = _activations(config, plan, 16, stage, measured=True)
        assert fast == pytest.approx(exact, rel=0.02), (plan, stage)


def test_adams_temporaries_and_fsdp2s_gathers_are_the_trackers_peak_over_the_state():
    # the 1B model's shapes with a short context: activations negligible beside the rest
    config = dataclasses.replace(CONFIGS["1B"], seq_len=8, n_layers=2)
    got = per_rank_bytes(lambda: stage_model.RankStage(config, 1, 0, 1, 2), "ddp", 8)
    kept = got["params"] + got["grads"] + got["optimizer"]
    extra = got["peak"] - kept - _transient(config, 1, 0, 1, "ddp", 8)
    assert 0 <= extra <= 2**20, f"Adam's two temporaries, and {extra} bytes of small tensors"
    got = per_rank_bytes(lambda: stage_model.RankStage(config, 1, 0, 1, 2), "fsdp2", 8)
    kept = got["params"] + got["grads"] + got["optimizer"]
    formula = _transient(config, 1, 0, 1, "fsdp2", 8)
    # at FSDP2's peak (in forward) the sharded gradients do not exist yet
    assert formula - got["grads"] <= got["peak"] - kept <= formula


def test_as_plan_reads_dicts_and_names_what_is_wrong():
    assert as_plan({"dp": 8}) == Plan(8)
    assert as_plan(None) is None
    plan = Plan(2, 4, 1, "zero1", 2, True)
    assert as_plan(plan) is plan
    assert as_plan(dataclasses.asdict(plan)) == plan
    wrong = [
        ({"dp": 8, "zero": 1}, "unknown key 'zero'"),
        ({"tp": 2}, "no 'dp' key"),
        ({"dp": 2.0}, "'dp' must be an int >= 1, got 2.0"),
        ({"dp": 1, "pp": 0}, "'pp' must be an int >= 1"),
        ({"dp": 1, "sharding": "zero2"}, "'sharding' must be one of 'ddp', 'zero1', 'fsdp2'"),
        ({"dp": 1, "checkpointing": "yes"}, "'checkpointing' must be True or False"),
    ]
    for value, words in wrong:
        with pytest.raises(ValueError, match=words.replace("(", r"\(")):
            as_plan(value)
    with pytest.raises(TypeError, match="a plan must be a dict"):
        as_plan((8, 1, 1))


def test_plan_problems_name_what_a_plan_breaks():
    c = CONFIGS["70B"]
    assert plan_problems(Plan(32), c, 32, 32) == ""
    assert "not the 32 GPUs" in plan_problems(Plan(32, tp=2), c, 32, 32)
    assert "does not split" in plan_problems(Plan(32, micro_batches=3), c, 32, 32)
    assert "does not divide the model's 80 layers" in plan_problems(Plan(1, 1, 32), c, 32, 32)
    assert "one of [1, 2, 4, 8]" in plan_problems(Plan(2, 16), c, 32, 32)


def test_gpus_memory_and_links_come_from_the_tables():
    assert gpu_memory("NVIDIA T4") == 16e9 and gpu_memory("NVIDIA H200 SXM 141GB") == 141e9
    assert link_of("NVIDIA H100 SXM5 80GB", 8) == ("NVLink", 450e9)
    assert link_of("NVIDIA H100 PCIe 80GB", 8) == ("PCIe", 64e9)
    assert link_of("NVIDIA T4", 16) == ("InfiniBand NDR", INFINIBAND)
    assert len(GPUS) == 7
    with pytest.raises(ValueError, match="gpu must be one of"):
        gpu_memory("NVIDIA A10G")
    assert fits(0.9 * 16e9, "NVIDIA T4") and not fits(0.9 * 16e9 + 1, "NVIDIA T4")


def test_step_time_parts():
    c, gpu = CONFIGS["7B"], "NVIDIA H100 SXM5 80GB"
    flops = sum(flops_per_token(c).values()) * 16 * c.seq_len
    plain = step_time(c, gpu, Plan(8, micro_batches=2), 16)
    assert plain["compute"] == pytest.approx(flops / (8 * 989.4e12 * MFU))
    assert plain["tp"] == plain["pp"] == 0 and plain["dp_exposed"] == 0 < plain["dp"]
    recompute = step_time(c, gpu, Plan(8, micro_batches=2, checkpointing=True), 16)
    assert recompute["compute"] == pytest.approx(4 / 3 * plain["compute"])
    piped = step_time(c, gpu, Plan(2, 1, 4, "ddp", 8, False), 16)
    assert piped["bubble"] == pytest.approx(3 / 11)  # (p - 1) / (m + p - 1)
    assert step_time(c, gpu, Plan(4, 2, 1), 16)["tp"] > 0
    # ZeRO-1's broadcast follows the step: exposed even where the all-reduce hides
    assert step_time(c, gpu, Plan(8, sharding="zero1"), 16)["dp_exposed"] > 0


def test_the_best_plan_is_the_fastest_candidate_that_fits():
    c, gpu = CONFIGS["125M"], "NVIDIA T4"
    plan, seconds, used = best_plan(c, gpu, 4, 32)
    assert fits(used["peak"], gpu)
    for other in candidates(c, 4, 32):
        if step_time(c, gpu, other, 32)["total"] < seconds:
            assert not fits(memory(c, other, 32)["peak"], gpu), other
    assert best_plan(CONFIGS["8B"], "NVIDIA T4", 8, 32) is None
