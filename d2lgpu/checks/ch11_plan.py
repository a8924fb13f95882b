"""Chapter 11's capstone checker: ``11.plan``, a parallel plan that fits and is fast enough.

The learner writes ``plan(config, gpu, n_gpus, global_batch)``: for a Llama configuration
from :data:`d2lgpu.llama.CONFIGS`, a GPU of :data:`d2lgpu.plan.GPUS` (named as the datasheet
table names it), a GPU count and a global batch of sequences, a dict with the keys of
:data:`d2lgpu.plan.KEYS` (or a :class:`d2lgpu.plan.Plan`), or ``None`` when nothing fits.
For each case the checker

* refuses a plan that is not one (a key it does not know, a degree that is not an int, the
  wrong GPU count, a batch it cannot split, layers or heads it cannot divide), naming why;
* measures the plan's peak per rank with :func:`d2lgpu.plan.memory` (``measured=True``:
  the tracker under the fake process group on the plan's own stages, scaled by blocks) and
  requires 10% of the GPU's memory to stay free; a hint names the part that overflows
  (parameters, gradients, optimizer state, activations) and by how much;
* estimates its step time (:func:`d2lgpu.plan.step_time`) and requires it within 1.5x of
  the fastest plan :func:`d2lgpu.plan.best_plan` finds by enumeration; a hint says how
  much slower and which part of the step makes it so;
* requires ``None`` exactly where no plan fits;
* refuses a plan made by calling :func:`d2lgpu.plan.best_plan` or :func:`d2lgpu.plan.memory`
  (the checker's own answer, which the prompt tells the learner to leave alone), however
  they were imported: the kit's :func:`._kit_code.runs_of` watches them while the answer runs.

The cases: a small model where DDP is the answer, one where DDP's state cannot fit and
ZeRO-1 is enough, one where sharding alone cannot fit and only tensor or pipeline
parallelism can, and one where nothing fits; then runs the prompt does not list (it
says there are some), so that plans written in for the four listed runs fail, and tight
ones where a rule of the prompt's estimate decides the plan (one block recomputed under
checkpointing, FSDP2's two buffers per gathered parameter), a batch that not every dp
divides, a GPU count with an odd factor, and plans that step_time ranks only when it is given
the global batch and the plan's micro-batches and checkpointing. An empty dict or list is
named as such: ``None`` is the answer where nothing fits.
"""

from __future__ import annotations

import copy

from ..llama import CONFIGS
from ..plan import (
    HEADROOM,
    as_plan,
    best_plan,
    fits,
    gpu_memory,
    memory,
    plan_problems,
    step_time,
)
from ._ch11_kept import kept_plan_hint
from ._ch11_kept import where as _where
from ._kit_code import runs_of
from ._kit_process import defaults_kept
from ._util import CheckFailed

__all__ = ["CASES", "check_plan"]

SLOWER = 1.5  # a plan may take up to this times the best plan's step
# (model, GPU, GPUs, global batch in sequences)
CASES = (
    ("125M", "NVIDIA T4", 4, 32),
    ("8B", "NVIDIA H200 SXM 141GB", 8, 32),
    ("70B", "NVIDIA H100 SXM5 80GB", 32, 32),
    ("8B", "NVIDIA T4", 8, 32),
    # not listed in the prompt: DDP with gradient accumulation, FSDP2 with checkpointing
    ("1B", "NVIDIA A100 SXM4 80GB", 8, 64),
    ("7B", "NVIDIA L4", 16, 32),
    # tight ones, where a rule of the prompt's estimate decides what fits: one block's full
    # activations while it is recomputed; FSDP2's two buffers per gathered parameter
    ("1B", "NVIDIA T4", 16, 32),  # FSDP2 over 8, tp = 2: fits, but not with one buffer
    ("8B", "NVIDIA T4", 32, 64),  # FSDP2, tp = 4, checkpointing: the recomputed block decides
    # 32 GPUs, 24 sequences: dp must divide the batch; step_time must see the global batch,
    # the micro-batches (the bubble) and the checkpointing of each plan to rank them
    ("7B", "NVIDIA H100 PCIe 80GB", 32, 24),
    # where plans ranked by one part of the step go wrong: the compute alone favours dp = 16
    # (the all-reduces then take most of the step); and tensor parallelism within a node only
    ("1B", "NVIDIA H100 SXM5 80GB", 32, 16),
    ("7B", "NVIDIA T4", 64, 24),
    # a micro-batch is global_batch / (dp x micro_batches) sequences: sized as global_batch /
    # micro_batches, the plans of many data-parallel ranks look too large, and a slow one wins
    ("7B", "NVIDIA L4", 32, 32),
    # ZeRO-1 deals whole tensors: the embedding's moments on one rank exceed the even 8 P / N
    ("1B", "NVIDIA T4", 8, 64),
    # a pipeline's last stage holds the output layer and the logits: a plan sized by its first
    # stage alone overflows there
    ("8B", "NVIDIA A100 PCIe 40GB", 8, 32),
    ("70B", "NVIDIA H100 SXM5 80GB", 40, 32),  # only pp = 5 fits: 40 has an odd factor
)
GB = 1e9
PARTS = {"params": "parameters", "grads": "gradients", "optimizer": "optimizer state"}


def _gb(n: float) -> str:
    return f"{n / GB:.1f} GB"


def _overflow(where: str, plan, got, limit: float) -> str:
    """What overflows, by how much, and what shrinks it, for the plan's sharding."""
    state = sum(got[k] for k in PARTS)
    parts = ", ".join(f"{PARTS[k]} {_gb(got[k])}" for k in PARTS)
    parts += f", activations {_gb(got['activations'])}"
    if plan.sharding == "fsdp2":
        parts += f", FSDP2's gathered parameters {_gb(got['transient'])}"
    elif got["transient"] > got["activations"]:
        parts += (
            f", Adam's temporaries in its step {_gb(got['transient'])} (after backward, "
            "when the activations are gone)"
        )
    head = (
        f"{where}: the rank that holds the most (pipeline stage {got['stage']}) needs "
        f"{_gb(got['peak'])}, over the {_gb(limit)} that leave 10% free by "
        f"{_gb(got['peak'] - limit)}: {parts}"
    )
    if state > limit:
        largest = max(PARTS, key=lambda k: got[k])
        shrink = {
            "ddp": "ZeRO-1 shards the optimizer state over the data-parallel ranks, FSDP2 all "
            "three; tensor and pipeline parallelism split the model itself",
            "zero1": "ZeRO-1 shards only the optimizer state: FSDP2 shards the parameters "
            "and gradients too; tensor and pipeline parallelism split the model itself",
            "fsdp2": f"FSDP2 already shards all three over dp = {plan.dp}: only tensor and "
            "pipeline parallelism split the model further",
        }[plan.sharding]
        return (
            f"{head}. The parameters, gradients and optimizer state alone overflow, by "
            f"{_gb(state - limit)}, the {PARTS[largest]} most: {shrink}"
        )
    even = 2 * got["params"] / plan.dp  # 8 bytes of moments per parameter, an even share
    if plan.sharding == "zero1" and got["optimizer"] - even >= got["peak"] - limit:
        return (
            f"{head}. Under ZeRO-1 this rank's optimizer state is {_gb(got['optimizer'])}, not "
            f"the even share 8 P / dp = {_gb(even)}, and the difference alone is the overflow: "
            "ZeRO-1 gives each rank whole tensors, largest first, so the rank holding the "
            "embedding holds more than its share (section 11.2). Estimate its state from the "
            "deal, as exercise 11.1 does, or shard with FSDP2"
        )
    what = "activations"
    if plan.sharding == "fsdp2":
        what += (
            " and FSDP2's gathered parameters (the root's and one block's, each twice: "
            "unsharded and in the all-gather's buffer; a tp-th under tensor parallelism)"
        )
    shrink = "activation checkpointing, or tensor parallelism shrink them"
    if plan.checkpointing:
        shrink = (
            "or tensor parallelism shrink them (checkpointing is on: each block's input is "
            "kept, and one block's full set while it is recomputed)"
        )
    return (
        f"{head}. The {what} overflow (the state alone fits, {_gb(state)}): fewer "
        f"sequences per micro-batch (more micro-batches), {shrink}. {_TERMS}"
    )


_TERMS = (
    "Where your estimate said it fits, check its terms against the prompt's: each block's "
    "saved tensors in float32, the output layer's logits, their log-softmax and gradient "
    "(3 x 4 t x vocab / tp, on the last stage), the min(pp, m) micro-batches the first stage "
    "holds, each of global_batch / dp / m sequences of seq_len tokens"
)


def _why_slower(config, gpu, plan, batch, best) -> str:
    """The part of the step that makes ``plan`` slower than ``best``, in words."""
    mine, theirs = step_time(config, gpu, plan, batch), step_time(config, gpu, best, batch)
    excess = {k: mine[k] - theirs[k] for k in ("compute", "tp", "pp", "dp_exposed")}
    part = max(excess, key=lambda k: excess[k])
    if part == "compute" and mine["bubble"] > theirs["bubble"] + 0.05:
        return (
            f"its pipeline bubble is {mine['bubble']:.0%} of its compute ({plan.pp} stages, "
            f"{plan.micro_batches} micro-batch{'es' if plan.micro_batches > 1 else ''}: "
            "1F1B idles (pp - 1) / (m + pp - 1) of the time; more micro-batches shrink it)"
        )
    if part == "compute":
        return (
            f"its compute takes {mine['compute']:.2f} s against {theirs['compute']:.2f} s: "
            "activation checkpointing runs every forward again in backward, a third more "
            "FLOPs, which a plan that fits without it does not pay"
        )
    if part == "tp":
        return (
            f"its tensor-parallel all-reduces take {mine['tp']:.2f} s on the critical path "
            f"(four per block and micro-batch over tp = {plan.tp}); a smaller tp, or none, "
            "moves fewer activations"
        )
    if part == "pp":
        return f"its pipeline's sends take {mine['pp']:.2f} s"
    return (
        f"its data-parallel communication leaves {mine['dp_exposed']:.2f} s that the compute "
        f"does not hide ({plan.sharding} over dp = {plan.dp}"
        + (
            f", re-gathering the parameters for each of {plan.micro_batches} micro-batches"
            if plan.sharding == "fsdp2" and plan.micro_batches > 1
            else ""
        )
        + (
            "; ZeRO-1's broadcast of the parameters follows the step and hides behind nothing"
            if plan.sharding == "zero1"
            else ""
        )
        + ")"
    )


def _check_case(plan_fn, name, gpu, n_gpus, batch, returned=None) -> str:
    """The case's verdict in words; ``returned`` (a list) gets what the answer returned."""
    config = CONFIGS[name]
    where = _where((name, gpu, n_gpus, batch))
    # best_plan, not its cache, runs on every call; a setting one call leaves changed is named
    # there, though a later call puts it back (the watch around the whole check sees the end)
    with runs_of(best_plan, memory) as calls, defaults_kept("plan"):
        raw = plan_fn(config, gpu, n_gpus, batch)
    if returned is not None:
        returned.append(raw)
    if calls:
        raise CheckFailed(
            f"{where}: your plan called d2lgpu.plan.{calls[0]}, the checker's own answer: size "
            "the plans with your own estimate (chapter 10's formulas for the state, the "
            "prompt's activation bytes) and time them with d2lgpu.plan.step_time"
        )
    best = best_plan(config, gpu, n_gpus, batch)
    if raw is not None and isinstance(raw, dict | list | tuple | str) and not raw:
        raise CheckFailed(
            f"{where}: you returned {raw!r}, an empty answer, not a plan: return None when "
            "no plan fits" + (" (as here)" if best is None else f"; here one does: {best[0]}")
        )
    try:
        plan = as_plan(raw)
    except (TypeError, ValueError) as error:
        raise CheckFailed(f"{where}: {error}") from None
    limit = (1 - HEADROOM) * gpu_memory(gpu)
    if plan is None:
        if best is None:
            return f"{where}: nothing fits, and the answer says so"
        raise CheckFailed(
            f"{where}: you returned None, but a plan fits: {best[0]} needs "
            f"{_gb(best[2]['peak'])} per rank, under the {_gb(limit)} that leave 10% free. "
            "Return None only when no plan fits"
        )
    problem = plan_problems(plan, config, n_gpus, batch)
    if problem:
        raise CheckFailed(f"{where}: {plan} is not a plan for this run: {problem}")
    got = memory(config, plan, batch, measured=True)
    if not fits(got["peak"], gpu):
        hint = _overflow(where, plan, got, limit)
        if best is None:
            hint += ". Here no plan fits: return None"
        raise CheckFailed(hint)
    if best is None:  # the measurement fits where the search's estimate found nothing
        return f"{where}: {plan} fits, where the search found nothing"
    seconds = step_time(config, gpu, plan, batch)["total"]
    if seconds > SLOWER * best[1]:
        raise CheckFailed(
            f"{where}: {plan} fits, but a step takes {seconds:.2f} s, {seconds / best[1]:.2f} "
            f"x the {best[1]:.2f} s of the best plan found ({best[0]}), more than {SLOWER}x: "
            + _why_slower(config, gpu, plan, batch, best[0])
            + f". That plan fits, at {_gb(best[2]['peak'])} of the {_gb(limit)} allowed: if "
            "your estimate put it over, check its terms for that plan (a micro-batch holds "
            "global_batch / (dp x micro_batches) sequences)"
        )
    return f"{where}: the plan fits with 10% free and its step is within {SLOWER}x of the best"


def check_plan(answer, passed: list[str]) -> None:
    """``11.plan``: each case's plan fits with 10% headroom and is within 1.5x of the best."""
    if not callable(answer):
        raise CheckFailed(f"the answer must be the function plan, got {answer!r}")
    history: list[tuple[tuple, object, object]] = []  # the run, its plan, a copy of it
    for case in CASES:
        passed.append(_checked(answer, case, history))
    for case, got, kept in history:
        if got is not None and got != kept:
            raise CheckFailed(
                f"the plan returned for {_where(case)}, {kept!r}, is {got!r} after later calls: "
                "every call refills the same dict (one made once, at module level or as a "
                "default argument), so a plan the caller kept changes under it. Return a new "
                "dict in every call"
            )
    # another model on the run just asked (8B on 8 T4s, where nothing fits; 125M fits with
    # room), and another batch on the run just asked: a plan or an estimate kept under a key
    # without the model, or without the batch, comes back
    for first, second, key in (
        (("8B", "NVIDIA T4", 8, 32), ("125M", "NVIDIA T4", 8, 32), "the model"),
        (("125M", "NVIDIA T4", 1, 16), ("125M", "NVIDIA T4", 1, 32), "the batch"),
    ):
        _checked(answer, first, history)
        passed.append(_checked(answer, second, history, key))


def _checked(plan_fn, case, history, key="") -> str:
    """``_check_case``, where a failure that a plan kept between calls explains is named so
    (:func:`._ch11_kept.kept_plan_hint`; ``key``: what the run asked just before differed
    in, alone)."""
    returned: list = []
    try:
        name, gpu, n_gpus, batch = case
        said = _check_case(plan_fn, name, gpu, n_gpus, batch, returned)
    except CheckFailed as failed:
        if not returned:
            raise
        got = returned[0]
        again = plan_fn(CONFIGS[case[0]], *case[1:])
        fresh = None if key else lambda: _right(plan_fn, name, gpu, n_gpus, batch + 8)
        if (kept := kept_plan_hint(case, got, again, history, key, fresh)) is None:
            raise
        raise CheckFailed(
            f"{_where(case)}: you returned {got!r}, {kept[0]}; and {failed}. {kept[1]}"
        ) from None
    history.append((case, returned[0], copy.deepcopy(returned[0])))
    if key:
        return f"{_where(case)}, asked right after a run that differs in {key}: a plan of its own"
    return said


def _right(plan_fn, name, gpu, n_gpus, batch) -> bool:
    """Whether ``plan_fn``'s plan for the run passes."""
    try:
        _check_case(plan_fn, name, gpu, n_gpus, batch)
    except CheckFailed:
        return False
    return True
