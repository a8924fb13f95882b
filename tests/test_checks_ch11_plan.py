"""Chapter 11's capstone checker, 11.plan: right plans in other styles pass, realistic wrong ones
fail with a hint that names what overflows or what makes the step slow. The best plans and
the measurements are cached for the process: the first check takes about 10 s, the rest
little more than the plans they measure."""

import numpy as np
import pytest
import torch
from grading_helpers import assert_fails, assert_passes, stub

from d2lgpu.checks.ch11_plan import CASES
from d2lgpu.grading import check
from d2lgpu.llama import CONFIGS
from d2lgpu.plan import Plan, best_plan, candidates, fits, memory, step_time

# what every overflow of the activations ends with: the prompt's terms, to check an estimate by
TERMS = (
    "Where your estimate said it fits, check its terms against the prompt's: each block's saved "
    "tensors in float32, the output layer's logits, their log-softmax and gradient (3 x 4 t x "
    "vocab / tp, on the last stage), the min(pp, m) micro-batches the first stage holds, each "
    "of global_batch / dp / m sequences of seq_len tokens"
)


def best_fits(peak, allowed):
    """How a slow plan's hint ends: the best plan's peak, and where to look in an estimate."""
    return (
        f". That plan fits, at {peak} GB of the {allowed} GB allowed: if your estimate put it "
        "over, check its terms for that plan (a micro-batch holds global_batch / (dp x "
        "micro_batches) sequences)"
    )


PASSED = [
    "125M on 4 x NVIDIA T4, global batch 32: the plan fits with 10% free and its step is "
    "within 1.5x of the best",
    "8B on 8 x NVIDIA H200 SXM 141GB, global batch 32: the plan fits with 10% free and its "
    "step is within 1.5x of the best",
    "70B on 32 x NVIDIA H100 SXM5 80GB, global batch 32: the plan fits with 10% free and its "
    "step is within 1.5x of the best",
    "8B on 8 x NVIDIA T4, global batch 32: nothing fits, and the answer says so",
    "1B on 8 x NVIDIA A100 SXM4 80GB, global batch 64: the plan fits with 10% free and its "
    "step is within 1.5x of the best",
    "7B on 16 x NVIDIA L4, global batch 32: the plan fits with 10% free and its step is "
    "within 1.5x of the best",
    *(
        f"{run}: the plan fits with 10% free and its step is within 1.5x of the best"
        for run in (
            "1B on 16 x NVIDIA T4, global batch 32",
            "8B on 32 x NVIDIA T4, global batch 64",
            "7B on 32 x NVIDIA H100 PCIe 80GB, global batch 24",
            "1B on 32 x NVIDIA H100 SXM5 80GB, global batch 16",
            "7B on 64 x NVIDIA T4, global batch 24",
            "7B on 32 x NVIDIA L4, global batch 32",
            "1B on 8 x NVIDIA T4, global batch 64",
            "8B on 8 x NVIDIA A100 PCIe 40GB, global batch 32",
            "70B on 40 x NVIDIA H100 SXM5 80GB, global batch 32",
        )
    ),
    "125M on 8 x NVIDIA T4, global batch 32, asked right after a run that differs in the model: "
    "a plan of its own",
    "125M on 1 x NVIDIA T4, global batch 32, asked right after a run that differs in the batch: "
    "a plan of its own",
]


def search(config, gpu, n_gpus, global_batch):
    """Wrong: every plan, sized with d2lgpu.plan.memory, the checker's own answer, which the
    prompt tells the learner to leave alone (right answers that size plans with their own
    estimate are in tests/redteam/11.plan)."""
    fitting = [
        p
        for p in candidates(config, n_gpus, global_batch)
        if fits(memory(config, p, global_batch)["peak"], gpu)
    ]
    if not fitting:
        return None
    return min(fitting, key=lambda p: step_time(config, gpu, p, global_batch)["total"])


# Right, in another style: a table written by hand, numpy integers and booleans, and plans
# other than the best (ZeRO-1; FSDP2 with checkpointing; tensor parallelism of 8)
TABLE = {
    ("NVIDIA T4", 4): dict(dp=np.int64(4), sharding="zero1", micro_batches=np.int64(8)),
    ("NVIDIA H200 SXM 141GB", 8): dict(
        dp=8, sharding="fsdp2", micro_batches=4, checkpointing=np.bool_(True)
    ),
    ("NVIDIA H100 SXM5 80GB", 32): dict(
        dp=4, tp=8, pp=1, sharding="fsdp2", micro_batches=8, checkpointing=True
    ),
    # the two runs the prompt does not list
    ("NVIDIA A100 SXM4 80GB", 8): dict(dp=8, sharding="zero1", micro_batches=4),
    ("NVIDIA L4", 16): dict(dp=16, sharding="fsdp2", micro_batches=np.int64(2), checkpointing=True),
    # the tight runs, and one whose batch not every dp divides
    ("NVIDIA T4", 16): dict(dp=8, tp=2, sharding="fsdp2", micro_batches=4),
    ("NVIDIA T4", 32): dict(
        dp=4, tp=4, pp=2, sharding="fsdp2", micro_batches=16, checkpointing=True
    ),
    ("NVIDIA H100 PCIe 80GB", 32): dict(dp=8, tp=2, pp=2, micro_batches=3),
    ("NVIDIA L4", 32): dict(dp=32, sharding="fsdp2", checkpointing=True),
    # a pipeline sized by its first stage alone overflows on its last here
    ("NVIDIA A100 PCIe 40GB", 8): dict(
        dp=4, tp=2, sharding="fsdp2", micro_batches=8, checkpointing=True
    ),
    # 40 GPUs: only a pipeline of 5 stages fits (round 65)
    ("NVIDIA H100 SXM5 80GB", 40): dict(
        dp=2, tp=4, pp=5, sharding="fsdp2", micro_batches=16, checkpointing=True
    ),
}


# runs on GPUs of a kind and count above, for another model: the compute alone misleads
# (1B), and a tp above 8 is offered (7B on 64)
BY_MODEL = {
    ("125M", "NVIDIA T4", 8): dict(dp=8),  # asked after 8B on the same run, where none fits
    # ("125M", "NVIDIA T4", 1), for batches of 16, then 32: micro-batches of 4 sequences, in table
    ("1B", "NVIDIA H100 SXM5 80GB", 32): dict(dp=4, tp=4, pp=2, micro_batches=4),
    ("1B", "NVIDIA T4", 8): dict(dp=2, pp=4, sharding="zero1", micro_batches=32),
    ("7B", "NVIDIA T4", 64): dict(
        dp=8, tp=2, pp=4, sharding="zero1", micro_batches=3, checkpointing=True
    ),
}


def table(config, gpu, n_gpus, global_batch):
    name = next(n for n, c in CONFIGS.items() if c == config)
    if (name, gpu, n_gpus) == ("125M", "NVIDIA T4", 1):
        return dict(dp=1, micro_batches=global_batch // 4)
    return BY_MODEL.get((name, gpu, n_gpus), TABLE.get((gpu, n_gpus)))


def test_plan_right_answers_pass():
    assert assert_passes("11.plan", table).passed == PASSED


def test_plan_a_plan_sized_with_the_checkers_own_memory_is_refused():
    assert_fails("11.plan", search, "called d2lgpu.plan.memory", "your own estimate")


def right_but(case_index, wrong):
    """The table's plans, with the plan of one case replaced by ``wrong``."""

    def answer(config, gpu, n_gpus, global_batch):
        name, *run = CASES[case_index][:3]
        if (config, gpu, n_gpus) == (CONFIGS[name], *run):
            return wrong
        return table(config, gpu, n_gpus, global_batch)

    return answer


def everywhere(**keys):
    """The same kind of plan for every case: data parallelism over all the GPUs."""
    return lambda c, g, n, batch: {"dp": n, **{k: v(n, batch) for k, v in keys.items()}}


ALL_MICRO = lambda n, batch: batch // n  # noqa: E731  (one sequence per micro-batch)
YES = lambda n, batch: True  # noqa: E731


MISTAKES = [
    # DDP with the whole batch at once: 8 sequences' activations on a 16 GB T4
    (lambda c, g, n, batch: {"dp": n}, ("The activations overflow", "micro-batches")),
    # DDP with small micro-batches: an 8B model's 16 bytes per parameter exceed a H200
    (
        everywhere(micro_batches=ALL_MICRO),
        ("8B on 8", "state alone overflow", "the optimizer state most", "ZeRO-1 shards"),
    ),
    # ZeRO-1 everywhere: the 70B model's parameters and gradients stay whole on each rank
    (
        everywhere(sharding=lambda n, b: "zero1", micro_batches=ALL_MICRO, checkpointing=YES),
        ("70B on 32", "the parameters most", "tensor and pipeline parallelism split the model"),
    ),
    # FSDP2 everywhere: the state fits, one 8192-token sequence's activations do not
    (
        everywhere(sharding=lambda n, b: "fsdp2", micro_batches=ALL_MICRO, checkpointing=YES),
        ("70B on 32", "activations and FSDP2's gathered parameters", "(the state alone fits"),
    ),
    # tensor parallelism over PCIe: four all-reduces per block on a T4's 16 GB/s
    (right_but(0, {"dp": 1, "tp": 4, "micro_batches": 32}), ("tensor-parallel all-reduces",)),
    # a pipeline of 4 stages with 4 micro-batches
    (right_but(0, {"dp": 1, "pp": 4, "micro_batches": 4}), ("pipeline bubble is 43%",)),
    # a plan where nothing fits
    (
        right_but(3, {"dp": 8, "sharding": "fsdp2", "micro_batches": 4, "checkpointing": True}),
        (
            "8B on 8 x NVIDIA T4",
            "FSDP2 already shards all three over dp = 8",
            "Here no plan fits: return None",
        ),
    ),
    (lambda c, g, n, batch: None, ("you returned None, but a plan fits",)),
    (lambda c, g, n, batch: {"dp": n, "tp": 2}, ("dp x tp x pp = 8, not the 4 GPUs",)),
    (lambda c, g, n, batch: {"dp": n, "micro_batches": 3}, ("does not split",)),
    (right_but(2, {"dp": 2, "tp": 16}), ("tp = 16 cannot split", "one of [1, 2, 4, 8]")),
    (lambda c, g, n, batch: {"dp": n, "zero_stage": 1}, ("unknown key 'zero_stage'",)),
    (lambda c, g, n, batch: (n, 1, 1), ("a plan must be a dict",)),
]


@pytest.mark.parametrize("answer, hint", MISTAKES)
def test_plan_mistakes_are_named(answer, hint):
    assert_fails("11.plan", answer, *hint)


def test_plan_hints_in_full():
    # the whole hint, numbers and all, for the two kinds of overflow and a slow plan
    assert check("11.plan", MISTAKES[0][0], quiet=True).hint == (
        "125M on 4 x NVIDIA T4, global batch 32: the rank that holds the most (pipeline "
        "stage 0) needs 21.1 GB, over the 14.4 GB that leave 10% free by 6.7 GB: parameters "
        "0.5 GB, gradients 0.5 GB, optimizer state 1.1 GB, activations 18.9 GB. The "
        "activations overflow (the state alone fits, 2.1 GB): fewer sequences per "
        "micro-batch (more micro-batches), activation checkpointing, or tensor parallelism "
        f"shrink them. {TERMS}"
    )
    assert check("11.plan", MISTAKES[1][0], quiet=True).hint == (
        "8B on 8 x NVIDIA H200 SXM 141GB, global batch 32: the rank that holds the most "
        "(pipeline stage 0) needs 238.2 GB, over the 126.9 GB that leave 10% free by 111.3 GB: "
        "parameters 32.1 GB, gradients 32.1 GB, optimizer state 64.2 GB, activations 109.7 GB. "
        "The parameters, gradients and optimizer state alone overflow, by 1.6 GB, the "
        "optimizer state most: ZeRO-1 shards the optimizer state over the data-parallel "
        "ranks, FSDP2 all three; tensor and pipeline parallelism split the model itself"
    )
    assert check("11.plan", MISTAKES[5][0], quiet=True).hint == (
        "125M on 4 x NVIDIA T4, global batch 32: dp=1 (ddp), tp=1, pp=4, 4 micro-batches, "
        "checkpointing off fits, but a step takes 1.00 s, 1.80 x the 0.56 s of the best plan "
        "found (dp=4 (ddp), tp=1, pp=1, 2 micro-batches, checkpointing off), more than 1.5x: "
        "its pipeline bubble is 43% of its compute (4 stages, 4 micro-batches: 1F1B idles "
        "(pp - 1) / (m + pp - 1) of the time; more micro-batches shrink it)" + best_fits(11.6, 14.4)
    )


def test_plan_a_non_function_and_the_stub():
    result = assert_fails("11.plan", 42, "must be the function plan")
    assert result.hint == "the answer must be the function plan, got 42"
    assert check("11.plan", stub, quiet=True).status == "not attempted"


def test_plan_a_plan_object_is_read_like_a_dict():
    def plan(config, gpu, n_gpus, global_batch):
        found = table(config, gpu, n_gpus, global_batch)
        if found is None:
            return None
        return Plan(**{k: int(v) if k != "sharding" else v for k, v in found.items()})

    assert_passes("11.plan", plan)


def via_best_plan(config, gpu, n_gpus, global_batch):
    """Wrong: the plan d2lgpu.plan.best_plan finds, the checker's own answer."""
    found = best_plan(config, gpu, n_gpus, global_batch)
    return None if found is None else found[0]


def test_plan_a_plan_found_by_the_checkers_own_search_is_refused():
    assert check("11.plan", via_best_plan, quiet=True).hint == (
        "125M on 4 x NVIDIA T4, global batch 32: your plan called d2lgpu.plan.best_plan, the "
        "checker's own answer: size the plans with your own estimate (chapter 10's formulas "
        "for the state, the prompt's activation bytes) and time them with d2lgpu.plan.step_time"
    )


@pytest.mark.parametrize(
    "answer, hint",
    [
        (
            MISTAKES[2][0],
            "70B on 32 x NVIDIA H100 SXM5 80GB, global batch 32: the rank that holds the most "
            "(pipeline stage 0) needs 617.0 GB, over the 72.0 GB that leave 10% free by 545.0 GB: "
            "parameters 282.2 GB, gradients 282.2 GB, optimizer state 17.7 GB, activations "
            "34.9 GB. The parameters, gradients and optimizer state alone overflow, by 510.1 GB, "
            "the parameters most: ZeRO-1 shards only the optimizer state: FSDP2 shards the "
            "parameters and gradients too; tensor and pipeline parallelism split the model itself",
        ),
        (
            MISTAKES[3][0],
            "70B on 32 x NVIDIA H100 SXM5 80GB, global batch 32: the rank that holds the most "
            "(pipeline stage 0) needs 93.8 GB, over the 72.0 GB that leave 10% free by 21.8 GB: "
            "parameters 8.8 GB, gradients 8.8 GB, optimizer state 17.6 GB, activations 34.9 GB, "
            "FSDP2's gathered parameters 23.7 GB. The activations and FSDP2's gathered "
            "parameters (the root's and one block's, each twice: unsharded and in the "
            "all-gather's buffer; a tp-th under tensor parallelism) overflow (the state alone "
            "fits, 35.3 GB): fewer sequences per micro-batch (more micro-batches), or tensor "
            "parallelism shrink them (checkpointing is on: each block's input is kept, and one "
            f"block's full set while it is recomputed). {TERMS}",
        ),
        (
            MISTAKES[4][0],
            "125M on 4 x NVIDIA T4, global batch 32: dp=1 (ddp), tp=4, pp=1, 32 micro-batches, "
            "checkpointing off fits, but a step takes 1.46 s, 2.63 x the 0.56 s of the best plan "
            "found (dp=4 (ddp), tp=1, pp=1, 2 micro-batches, checkpointing off), more than 1.5x: "
            "its tensor-parallel all-reduces take 0.91 s on the critical path (four per block "
            "and micro-batch over tp = 4); a smaller tp, or none, moves fewer activations"
            + best_fits(11.6, 14.4),
        ),
        (
            MISTAKES[6][0],
            "8B on 8 x NVIDIA T4, global batch 32: the rank that holds the most (pipeline stage "
            "0) needs 43.5 GB, over the 14.4 GB that leave 10% free by 29.1 GB: parameters "
            "4.0 GB, gradients 4.0 GB, optimizer state 8.0 GB, activations 17.3 GB, FSDP2's "
            "gathered parameters 10.2 GB. The parameters, gradients and optimizer state alone "
            "overflow, by 1.7 GB, the optimizer state most: FSDP2 already shards all three over "
            "dp = 8: only tensor and pipeline parallelism split the model further. Here no plan "
            "fits: return None",
        ),
        (
            MISTAKES[7][0],
            "125M on 4 x NVIDIA T4, global batch 32: you returned None, but a plan fits: dp=4 "
            "(ddp), tp=1, pp=1, 2 micro-batches, checkpointing off needs 11.6 GB per rank, under "
            "the 14.4 GB that leave 10% free. Return None only when no plan fits",
        ),
        (
            # two stages, two micro-batches, checkpointing: the bubble, not the recompute
            right_but(0, {"dp": 2, "pp": 2, "micro_batches": 2, "checkpointing": True}),
            "125M on 4 x NVIDIA T4, global batch 32: dp=2 (ddp), tp=1, pp=2, 2 micro-batches, "
            "checkpointing on fits, but a step takes 1.13 s, 2.02 x the 0.56 s of the best plan "
            "found (dp=4 (ddp), tp=1, pp=1, 2 micro-batches, checkpointing off), more than 1.5x: "
            "its pipeline bubble is 33% of its compute (2 stages, 2 micro-batches: 1F1B idles "
            "(pp - 1) / (m + pp - 1) of the time; more micro-batches shrink it)"
            + best_fits(11.6, 14.4),
        ),
        (
            # ZeRO-1 over 2 pipeline stages with one micro-batch: half the step idles
            right_but(
                0,
                {"dp": 2, "pp": 2, "sharding": "zero1", "micro_batches": 1, "checkpointing": True},
            ),
            "125M on 4 x NVIDIA T4, global batch 32: dp=2 (zero1), tp=1, pp=2, 1 micro-batch, "
            "checkpointing on fits, but a step takes 1.51 s, 2.72 x the 0.56 s of the best plan "
            "found (dp=4 (ddp), tp=1, pp=1, 2 micro-batches, checkpointing off), more than 1.5x: "
            "its pipeline bubble is 50% of its compute (2 stages, 1 micro-batch: 1F1B idles "
            "(pp - 1) / (m + pp - 1) of the time; more micro-batches shrink it)"
            + best_fits(11.6, 14.4),
        ),
        (
            # two stages, two micro-batches, no checkpointing: 1.52x, which one decimal read as
            # "1.5 x ..., more than 1.5x"
            right_but(0, {"dp": 2, "pp": 2, "micro_batches": 2}),
            "125M on 4 x NVIDIA T4, global batch 32: dp=2 (ddp), tp=1, pp=2, 2 micro-batches, "
            "checkpointing off fits, but a step takes 0.85 s, 1.52 x the 0.56 s of the best plan "
            "found (dp=4 (ddp), tp=1, pp=1, 2 micro-batches, checkpointing off), more than 1.5x: "
            "its pipeline bubble is 33% of its compute (2 stages, 2 micro-batches: 1F1B idles "
            "(pp - 1) / (m + pp - 1) of the time; more micro-batches shrink it)"
            + best_fits(11.6, 14.4),
        ),
        (
            # a pipeline whose bubble is not the largest excess: the all-reduces are
            right_but(0, {"dp": 1, "tp": 2, "pp": 2, "micro_batches": 4}),
            "125M on 4 x NVIDIA T4, global batch 32: dp=1 (ddp), tp=2, pp=2, 4 micro-batches, "
            "checkpointing off fits, but a step takes 1.02 s, 1.84 x the 0.56 s of the best plan "
            "found (dp=4 (ddp), tp=1, pp=1, 2 micro-batches, checkpointing off), more than 1.5x: "
            "its tensor-parallel all-reduces take 0.30 s on the critical path (four per block "
            "and micro-batch over tp = 2); a smaller tp, or none, moves fewer activations"
            + best_fits(11.6, 14.4),
        ),
        (
            # checkpointing where the best plan needs none: the recompute
            right_but(1, {"dp": 2, "tp": 4, "micro_batches": 2, "checkpointing": True}),
            "8B on 8 x NVIDIA H200 SXM 141GB, global batch 32: dp=2 (ddp), tp=4, pp=1, 2 "
            "micro-batches, checkpointing on fits, but a step takes 7.77 s, 1.52 x the 5.10 s of "
            "the best plan found (dp=4 (fsdp2), tp=2, pp=1, 8 micro-batches, checkpointing off), "
            "more than 1.5x: its compute takes 6.39 s against 4.80 s: activation checkpointing "
            "runs every forward again in backward, a third more FLOPs, which a plan that fits "
            "without it does not pay" + best_fits(89.1, 126.9),
        ),
    ],
)
def test_plan_more_hints_in_full(answer, hint):
    # ZeRO-1's and FSDP2's state overflows, FSDP2's gathered parameters, tensor parallelism's
    # all-reduces, a pipeline's bubble, and None where a plan fits: numbers and all
    assert check("11.plan", answer, quiet=True).hint == hint


@pytest.mark.parametrize(
    "run, plan, hint",
    [
        (
            ("125M", "NVIDIA T4", 8),
            Plan(dp=8, sharding="zero1", micro_batches=2),
            "its data-parallel communication leaves 0.03 s that the compute does not hide "
            "(zero1 over dp = 8; ZeRO-1's broadcast of the parameters follows the step and "
            "hides behind nothing)",
        ),
        (
            ("125M", "NVIDIA T4", 8),
            Plan(dp=8, sharding="fsdp2", micro_batches=4),
            "its data-parallel communication leaves 0.07 s that the compute does not hide "
            "(fsdp2 over dp = 8, re-gathering the parameters for each of 4 micro-batches)",
        ),
        (
            ("125M", "NVIDIA H100 PCIe 80GB", 16),
            Plan(dp=16, micro_batches=2),
            "its data-parallel communication leaves 0.01 s that the compute does not hide "
            "(ddp over dp = 16)",
        ),
        (
            ("125M", "NVIDIA A100 PCIe 40GB", 16),
            Plan(dp=16, sharding="fsdp2", micro_batches=1),
            "its data-parallel communication leaves 0.00 s that the compute does not hide "
            "(fsdp2 over dp = 16)",
        ),
        (
            ("7B", "NVIDIA T4", 16),
            Plan(dp=8, pp=2, micro_batches=4),
            "its pipeline's sends take 0.01 s",
        ),
    ],
)
def test_plan_why_slower_names_data_parallel_and_pipeline_communication(run, plan, hint):
    # no plan of the checker's cases is slowed most by these two parts: the hint's words for
    # each, on runs where they are, against the best plan found there
    from d2lgpu.checks.ch11_plan import _why_slower
    from d2lgpu.llama import CONFIGS

    name, gpu, n_gpus = run
    best = best_plan(CONFIGS[name], gpu, n_gpus, 32)
    assert _why_slower(CONFIGS[name], gpu, plan, 32, best[0]) == hint


def test_plan_an_overflow_at_adams_step_names_its_temporaries():
    # no plan of the checker's cases overflows with Adam's temporaries above its activations:
    # the hint for one, from the parts of a ZeRO-1 rank (GB), whose state alone fits
    from d2lgpu.checks.ch11_plan import _overflow

    got = dict(params=30e9, grads=30e9, optimizer=4e9, activations=2e9, transient=16e9)
    got.update(peak=80e9, stage=0)
    hint = _overflow("a run", Plan(dp=8, sharding="zero1"), got, 72e9)
    assert hint == (
        "a run: the rank that holds the most (pipeline stage 0) needs 80.0 GB, over the 72.0 GB "
        "that leave 10% free by 8.0 GB: parameters 30.0 GB, gradients 30.0 GB, optimizer state "
        "4.0 GB, activations 2.0 GB, Adam's temporaries in its step 16.0 GB (after backward, "
        "when the activations are gone). The activations overflow (the state alone fits, "
        "64.0 GB): fewer sequences per micro-batch (more micro-batches), activation "
        f"checkpointing, or tensor parallelism shrink them. {TERMS}"
    )
    # temporaries no larger than the activations are not listed
    got["transient"] = got["activations"]
    assert "temporaries" not in _overflow("a run", Plan(dp=8, sharding="zero1"), got, 72e9)


def test_plan_the_checker_measures_each_plan_with_the_tracker(monkeypatch):
    # the checker's verdict on memory is the tracker's (memory(..., measured=True) reads what
    # _plan_stage.state_bytes measured), not the formulas the learner writes, which agree to
    # 0.1 GB on the plans above and so cannot show it
    import d2lgpu.plan

    calls = []

    def watched(*args):
        calls.append(args)
        return state_bytes(*args)

    state_bytes = d2lgpu.plan.state_bytes
    monkeypatch.setattr(d2lgpu.plan, "state_bytes", watched)
    assert_passes("11.plan", table)
    assert len(calls) >= 5, calls


def case(index):
    return CASES[index][1:3]


# the plan each rule of the estimate, broken, picks on the run where it decides: each fits
# the broken estimate but not the tracker, or is invalid, or is slow (tests/redteam/11.plan
# holds the answers that pick them)
RULES = [
    # FSDP2's root and one block counted once, not twice (unsharded and the gather's buffer)
    (6, dict(dp=16, sharding="fsdp2", micro_batches=2), ("1B on 16 x NVIDIA T4", "each twice")),
    # checkpointing without the recomputed block's full set
    (
        7,
        dict(dp=1, tp=2, pp=16, micro_batches=64, checkpointing=True),
        ("8B on 32 x NVIDIA T4", "one block's full set while it is recomputed"),
    ),
    # dp that does not divide the batch of 24
    (8, dict(dp=16, tp=2, micro_batches=1, checkpointing=True), ("24 sequences does not split",)),
    # timed on global_batch // dp, or without micro-batches and checkpointing: slow plans
    (8, dict(dp=4, tp=8, micro_batches=3), ("2.25 x", "tensor-parallel all-reduces")),
    (8, dict(dp=8, tp=4, micro_batches=1, checkpointing=True), ("1.84 x", "all-reduces")),
]


@pytest.mark.parametrize("index, wrong, hint", RULES)
def test_plan_each_rule_of_the_estimate_decides_a_run(index, wrong, hint):
    # wrong in one run only, every other run right: the run must tell the rule apart
    assert_fails("11.plan", right_but(index, wrong), *hint)


def test_plan_an_empty_answer_is_named_as_one():
    hint = check("11.plan", right_but(3, {}), quiet=True).hint
    assert hint == (
        "8B on 8 x NVIDIA T4, global batch 32: you returned {}, an empty answer, not a plan: "
        "return None when no plan fits (as here)"
    )
    assert "here one does: dp=4 (ddp)" in check("11.plan", lambda c, g, n, b: [], quiet=True).hint


def test_plan_a_plan_kept_under_a_key_without_the_gpu_is_named_and_a_rule_is_not():
    """8B on 8 T4s comes after 8B on 8 H200s, two runs before: a cache keyed on the model, the
    GPU count and the batch answers the H200's plan. The same run with a batch never asked
    (40) is right, so the plan is named as kept; an answer whose plan for the T4 run is its
    own, and wrong on any batch, hears only what is wrong with it."""
    kept = {}

    def cached(config, gpu, n_gpus, global_batch):
        key = (config, n_gpus, global_batch)
        if key not in kept:
            kept[key] = table(config, gpu, n_gpus, global_batch)
        return kept[key]

    h200 = table(CONFIGS["8B"], "NVIDIA H200 SXM 141GB", 8, 32)
    assert_fails(
        "11.plan",
        cached,
        f"8B on 8 x NVIDIA T4, global batch 32: you returned {h200!r}, what you returned for "
        "8B on 8 x NVIDIA H200 SXM 141GB, global batch 32, asked before, a run that differs "
        "in the GPU alone; and ",
        "kept between calls under a key without the GPU answers for another run",
    )
    hint = check("11.plan", right_but(3, h200), quiet=True).hint
    assert hint.startswith("8B on 8 x NVIDIA T4, global batch 32: the rank that holds the most")
    assert "kept" not in hint


def test_plan_a_plan_kept_under_a_key_without_the_model_is_named():
    """125M on 8 T4s is asked right after 8B on the same run: a cache keyed on the GPU, the
    GPU count and the batch answers None, 8B's. A wrong plan of 125M's own is named as such."""
    kept = {}

    def cached(config, gpu, n_gpus, global_batch):
        key = (gpu, n_gpus, global_batch)
        if key not in kept:
            kept[key] = table(config, gpu, n_gpus, global_batch)
        return kept[key]

    assert_fails(
        "11.plan",
        cached,
        "125M on 8 x NVIDIA T4, global batch 32: you returned None, what you returned for 8B "
        "on 8 x NVIDIA T4, global batch 32, asked before",
        "kept between calls under a key without the model",
    )

    def slow_for_125m(config, gpu, n_gpus, global_batch):
        if (config, gpu, n_gpus) == (CONFIGS["125M"], "NVIDIA T4", 8):
            return {"dp": 2, "pp": 4, "micro_batches": 4}
        return table(config, gpu, n_gpus, global_batch)

    hint = assert_fails("11.plan", slow_for_125m, "125M on 8 x NVIDIA T4").hint
    assert "kept between calls" not in hint, hint


def test_an_overflow_that_zero1s_deal_alone_explains_is_named_as_the_deal():
    # round 51's w01: ZeRO-1's state sized as the even share; its overflow is the deal's
    from d2lgpu.checks.ch11_plan import _overflow
    from d2lgpu.plan import Plan

    where, limit = "1B on 8 x NVIDIA T4, global batch 64", 14_400_000_000
    got = dict(params=3_000_000_000, grads=3_000_000_000, optimizer=1_900_000_000)
    got |= dict(activations=6_500_000_000, transient=1_000_000_000, stage=0, peak=14_800_000_000)
    zero1 = Plan(dp=4, tp=2, sharding="zero1")  # an even share of 2 x 3.0 GB / 4 = 1.5 GB
    assert _overflow(where, zero1, got, limit) == (
        "1B on 8 x NVIDIA T4, global batch 64: the rank that holds the most (pipeline stage 0) "
        "needs 14.8 GB, over the 14.4 GB that leave 10% free by 0.4 GB: parameters 3.0 GB, "
        "gradients 3.0 GB, optimizer state 1.9 GB, activations 6.5 GB. Under ZeRO-1 this rank's "
        "optimizer state is 1.9 GB, not the even share 8 P / dp = 1.5 GB, and the difference "
        "alone is the overflow: ZeRO-1 gives each rank whole tensors, largest first, so the rank "
        "holding the embedding holds more than its share (section 11.2). Estimate its state from "
        "the deal, as exercise 11.1 does, or shard with FSDP2"
    )  # the difference, 0.4 GB, is the overflow exactly
    less = got | {"optimizer": 1_800_000_000}  # 0.3 GB over the share: the activations decide
    assert "Under ZeRO-1" not in _overflow(where, zero1, less, limit)
    assert "Under ZeRO-1" not in _overflow(where, Plan(dp=4, tp=2), got, limit)  # DDP
    at_limit = got | {"params": 5_000_000_000, "grads": 5_000_000_000, "optimizer": 4_400_000_000}
    hint = _overflow(where, Plan(dp=4, tp=2), at_limit, limit)  # the state fills the limit
    assert "alone overflow" not in hint and "the state alone fits, 14.4 GB" in hint, hint


def test_plan_a_thread_count_left_on_one_path_is_named_whatever_the_callers_count():
    """The None path leaves one thread, a later plan path puts back what it read: at the end
    the count is the caller's whenever the caller had one thread (as a checker's machine may);
    the call that left it is named all the same."""
    space = {"table": table}
    source = (
        "import torch\n"
        "def plan(config, gpu, n_gpus, global_batch):\n"
        "    old = torch.get_num_threads()\n"
        "    torch.set_num_threads(1)\n"
        "    found = table(config, gpu, n_gpus, global_batch)\n"
        "    if found is None:\n"
        "        return None\n"
        "    torch.set_num_threads(old)\n"
        "    return found\n"
    )
    exec(compile(source, "/tmp/work/answer.py", "exec"), space)  # noqa: S102 - a learner's file
    threads = torch.get_num_threads()
    try:
        for count in (1, 2):
            torch.set_num_threads(count)
            assert_fails(
                "11.plan",
                space["plan"],
                "plan leaves a process-wide setting changed (torch.set_num_threads(1))",
            )
            assert torch.get_num_threads() == count
    finally:
        torch.set_num_threads(threads)


def test_plan_a_search_of_power_of_two_pipelines_is_named_on_40_gpus():
    def powers_of_two(config, gpu, n_gpus, global_batch):  # round 65's w02: no pp of 5
        return None if n_gpus == 40 else table(config, gpu, n_gpus, global_batch)

    assert_fails(
        "11.plan", powers_of_two, "70B on 40 x NVIDIA H100 SXM5 80GB, global batch 32: you "
        "returned None, but a plan fits: dp=2 (fsdp2), tp=4, pp=5",
    )  # fmt: skip
