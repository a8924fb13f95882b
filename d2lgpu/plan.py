"""Plan a training run: parallel degrees, sharding, micro-batches and checkpointing, sized and timed.

What it is for: exercise ``11.plan`` and its checker. A :class:`Plan` names how a model
is trained on ``n_gpus = dp * tp * pp`` GPUs: data-parallel degree ``dp`` with its
``sharding`` (``"ddp"``, ``"zero1"`` or ``"fsdp2"``, chapter 10), tensor-parallel degree
``tp`` inside a node and pipeline degree ``pp`` (chapter 9), ``micro_batches`` per step on
each data-parallel rank (1F1B's micro-batches under a pipeline, gradient accumulation
without one) and activation ``checkpointing`` of every block. fp32 weights, gradients and
Adam's state, as :func:`d2lgpu.scale.per_rank_bytes` measures them.

* :func:`as_plan` turns a dict with those keys (or a :class:`Plan`, or ``None``: nothing
  fits) into a :class:`Plan`; :func:`plan_problems` says what a plan breaks (its GPU
  count, the batch, the layers or heads it cannot split).
* :func:`memory` is the peak bytes per rank, by part, on the rank that holds the most (the
  first pipeline stage or the last): ``measured=True`` measures the plan itself with the
  tracker (:mod:`d2lgpu._plan_stage`: parameters, gradients and Adam's state through
  ``per_rank_bytes`` at the data-parallel world size, activations through ``MemTracker``,
  each on 1 and 2 blocks and scaled to the stage's); ``measured=False`` (what the search
  uses) counts the state from the tensors' shapes, and scales activations measured once
  per model at 1 sequence and tensor-parallel degrees 1 and 2 (each tensor either splits
  over ``tp`` or does not). Two parts are formulas, fitted to the tracker (``tests/
  test_plan.py``), because they are set by a single tensor, not by the depth: Adam's step
  allocates two temporaries the size of the largest tensor; FSDP2 holds the root's and one
  block's parameters unsharded, each beside its all-gather buffer.
* :func:`step_time` is :mod:`d2lgpu._plan_time`'s model; :func:`best_plan` enumerates
  every plan that fits with 10% headroom and returns the fastest.

What it is not: a planner for a real cluster: the memory is the CPU kernels' under fake
tensors, the time a roofline and link peaks, and a pipeline's rank holds the activations
of ``min(pp, m)`` micro-batches (1F1B's first stage).
"""

from __future__ import annotations

import dataclasses
import functools
import math
import numbers

from ._plan_stage import activation_peak, state_bytes
from ._plan_stage import shapes as _shapes
from ._plan_stage import state_formula as _state_formula
from ._plan_stage import transient as _transient
from ._plan_time import GPUS, GPUS_PER_NODE, gpu_memory
from ._plan_time import step_time as _step_time
from .llama import DecoderConfig

__all__ = [
    "GPUS",
    "HEADROOM",
    "KEYS",
    "SHARDINGS",
    "Plan",
    "allowed_tp",
    "as_plan",
    "best_plan",
    "candidates",
    "fits",
    "gpu_memory",
    "memory",
    "plan_problems",
    "step_time",
]

SHARDINGS = ("ddp", "zero1", "fsdp2")
KEYS = ("dp", "tp", "pp", "sharding", "micro_batches", "checkpointing")
HEADROOM = 0.10  # a plan must leave 10% of the GPU's memory free


@dataclasses.dataclass(frozen=True)
class Plan:
    """How a step runs on ``dp * tp * pp`` GPUs (see the module's docstring)."""

    dp: int
    tp: int = 1
    pp: int = 1
    sharding: str = "ddp"
    micro_batches: int = 1
    checkpointing: bool = False

    def __str__(self) -> str:
        return (
            f"dp={self.dp} ({self.sharding}), tp={self.tp}, pp={self.pp}, "
            f"{self.micro_batches} micro-batch{'es' if self.micro_batches > 1 else ''}, "
            f"checkpointing {'on' if self.checkpointing else 'off'}"
        )


def as_plan(value) -> Plan | None:
    """A :class:`Plan` from a dict of :data:`KEYS` (``dp`` required), a Plan, or ``None``."""
    if value is None or isinstance(value, Plan):
        return value
    if not isinstance(value, dict):
        raise TypeError(
            f"a plan must be a dict with the keys {', '.join(KEYS)} (or a d2lgpu.plan.Plan, "
            f"or None when nothing fits), got {type(value).__name__}: {value!r}"
        )
    unknown = [k for k in value if k not in KEYS]
    if unknown:
        raise ValueError(f"unknown key {unknown[0]!r}: a plan's keys are {', '.join(KEYS)}")
    if "dp" not in value:
        raise ValueError("the plan has no 'dp' key: the data-parallel degree is required")
    fields = dict(value)
    for key in ("dp", "tp", "pp", "micro_batches"):
        v = fields.get(key, 1)
        if isinstance(v, bool) or not isinstance(v, numbers.Integral) or v < 1:
            raise ValueError(f"the plan's {key!r} must be an int >= 1, got {v!r}")
        fields[key] = int(v)
    if value.get("sharding", "ddp") not in SHARDINGS:
        raise ValueError(
            f"the plan's 'sharding' must be one of {', '.join(map(repr, SHARDINGS))}, "
            f"got {value['sharding']!r}"
        )
    if fields.get("checkpointing", False) not in (True, False):
        raise ValueError(
            f"the plan's 'checkpointing' must be True or False, got {value['checkpointing']!r}"
        )
    fields["checkpointing"] = bool(fields.get("checkpointing", False))
    return Plan(**fields)


def allowed_tp(config: DecoderConfig) -> list[int]:
    """Tensor-parallel degrees that split every head group, the MLP and the vocabulary, in a node."""
    sizes = (config.n_heads, config.n_kv_heads, config.ffn_dim, config.vocab)
    return [t for t in range(1, GPUS_PER_NODE + 1) if all(s % t == 0 for s in sizes)]


def plan_problems(plan: Plan, config: DecoderConfig, n_gpus: int, global_batch: int) -> str:
    """What ``plan`` breaks for this problem, in words, or ``""``."""
    if plan.dp * plan.tp * plan.pp != n_gpus:
        return f"dp x tp x pp = {plan.dp * plan.tp * plan.pp}, not the {n_gpus} GPUs"
    if global_batch % (plan.dp * plan.micro_batches):
        return (
            f"the global batch of {global_batch} sequences does not split into dp x "
            f"micro_batches = {plan.dp * plan.micro_batches} equal micro-batches"
        )
    if config.n_layers % plan.pp:
        return f"pp = {plan.pp} does not divide the model's {config.n_layers} layers"
    if plan.tp not in allowed_tp(config):
        return (
            f"tp = {plan.tp} cannot split this model inside a node: tp must divide the "
            f"{config.n_heads} heads, {config.n_kv_heads} key-value heads, the MLP's "
            f"{config.ffn_dim} and the vocabulary's {config.vocab}, and be at most "
            f"{GPUS_PER_NODE}: one of {allowed_tp(config)}"
        )
    return ""


@functools.cache
def _per_sequence(
    config: DecoderConfig, checkpointing: bool, head: bool
) -> tuple[float, float, float, float, float]:
    """Activation bytes as ``R + S / tp`` per sequence: (R, S) per block, (R, S) once, and C.

    Measured by the tracker at tp 1 and 2 on the whole model (``head``: it ends in the
    output layer and the loss) or on a first pipeline stage (no output layer), each cut to
    1 and 2 blocks, with one sequence: what grows with the blocks is per block, the rest
    (the logits and the loss, backward's temporaries, under checkpointing one block's
    recomputation) is once per micro-batch. Part of that does not grow with the sequences
    (the output layer's weight gradient, made before it is added to ``.grad``): ``C / tp``,
    from one more measurement with two sequences at tp 1.
    """
    stage, pp = (0, 1) if head else (0, 2)
    got = {
        (tp, k): activation_peak(config, tp, stage, pp, k, 1, checkpointing)
        for tp in (1, 2)
        for k in (1, 2)
    }
    block = {tp: got[tp, 2] - got[tp, 1] for tp in (1, 2)}
    once = {tp: got[tp, 1] - block[tp] for tp in (1, 2)}
    twice = activation_peak(config, 1, stage, pp, 1, 2, checkpointing) - 2 * block[1]
    return (
        2 * block[2] - block[1],
        2 * (block[1] - block[2]),
        2 * once[2] - once[1],
        2 * (once[1] - once[2]),
        2 * once[1] - twice,
    )


def _activations(config, plan, global_batch, stage, measured) -> int:
    """One rank's activation peak: its stage's blocks for ``min(pp, m)`` micro-batches in flight.

    ``measured``: the tracker on this very stage (its tp, micro-batch, checkpointing) at 1
    and 2 blocks; else :func:`_per_sequence`, scaled by the micro-batch's sequences (the
    last stage as the whole model, which ends in the output layer; the others as a first
    stage).
    """
    b = global_batch // (plan.dp * plan.micro_batches)
    blocks = config.n_layers // plan.pp
    in_flight = min(plan.pp, plan.micro_batches) if stage == 0 and plan.pp > 1 else 1
    ckpt, tp = plan.checkpointing, plan.tp
    if measured:
        one, two = (activation_peak(config, tp, stage, plan.pp, k, b, ckpt) for k in (1, 2))
        per_block, once = two - one, 2 * one - two
    else:
        r, s, r1, s1, c = _per_sequence(config, ckpt, stage == plan.pp - 1)
        per_block, once = b * (r + s / tp), c / tp + b * (r1 + s1 / tp - c / tp)
    return int(in_flight * blocks * per_block + once)


def memory(
    config: DecoderConfig, plan: Plan, global_batch: int, *, measured: bool = False
) -> dict[str, int]:
    """Peak bytes on the rank that holds the most, by part: ``params``, ``grads``,
    ``optimizer``, ``activations``, ``transient`` (Adam's temporaries, or FSDP2's gathered
    parameters), ``peak``, and ``stage`` (which pipeline stage that rank runs).

    The peak is the state plus the larger of Adam's temporaries (in the optimizer's step,
    after backward freed the activations) and the activations; under FSDP2 plus both the
    activations and the gathered parameters, which live during forward and backward. The
    gradients are counted whole from the start of backward: under gradient accumulation
    (or DDP's preallocated buckets) they are.
    """
    worst: dict[str, int] = {}
    for stage in sorted({0, plan.pp - 1}):
        args = (config, plan.tp, stage, plan.pp, plan.sharding, plan.dp)
        if measured:
            state = dict(state_bytes(*args))
            state.pop("peak")
        else:
            state = _state_formula(*args)
        acts = _activations(config, plan, global_batch, stage, measured)
        extra = _transient(*args)
        over = acts + extra if plan.sharding == "fsdp2" else max(acts, extra)
        got = {**state, "activations": acts, "transient": extra, "stage": stage}
        got["peak"] = sum(state.values()) + over
        if got["peak"] > worst.get("peak", -1):
            worst = got
    return worst


def fits(peak: float, gpu: str) -> bool:
    """Whether ``peak`` bytes leave :data:`HEADROOM` of ``gpu``'s memory free."""
    return peak <= (1 - HEADROOM) * gpu_memory(gpu)


def step_time(config: DecoderConfig, gpu: str, plan: Plan, global_batch: int) -> dict:
    """Seconds of one step, by part (:func:`d2lgpu._plan_time.step_time`)."""
    params = max(
        sum(math.prod(s) for s in _shapes(config, plan.tp, stage, plan.pp))
        for stage in {0, plan.pp - 1}
    )
    return _step_time(config, gpu, plan, global_batch, params)


def candidates(config: DecoderConfig, n_gpus: int, global_batch: int):
    """Every plan :func:`plan_problems` accepts, micro-batches among the batch's divisors."""
    for tp in allowed_tp(config):
        for pp in (p for p in range(1, config.n_layers + 1) if config.n_layers % p == 0):
            if n_gpus % (tp * pp):
                continue
            dp = n_gpus // (tp * pp)
            if global_batch % dp:
                continue
            for m in (m for m in range(1, global_batch // dp + 1) if global_batch // dp % m == 0):
                for sharding in SHARDINGS if dp > 1 else ("ddp",):
                    for ckpt in (False, True):
                        yield Plan(dp, tp, pp, sharding, m, ckpt)


def best_plan(config: DecoderConfig, gpu: str, n_gpus: int, global_batch: int):
    """``(plan, seconds, memory)`` of the fastest plan that fits with 10% headroom, or ``None``.

    Plans whose state alone overflows are dropped before their activations are sized, so
    a problem where nothing fits measures nothing. Cached per problem.
    """
    return _best_plan(config, gpu, n_gpus, global_batch)


@functools.cache
def _best_plan(config: DecoderConfig, gpu: str, n_gpus: int, global_batch: int):
    limit = (1 - HEADROOM) * gpu_memory(gpu)
    best = None
    for plan in candidates(config, n_gpus, global_batch):
        state = max(
            sum(_state_formula(config, plan.tp, s, plan.pp, plan.sharding, plan.dp).values())
            for s in {0, plan.pp - 1}
        )
        if state > limit:
            continue
        seconds = step_time(config, gpu, plan, global_batch)["total"]
        if best is not None and seconds >= best[1]:
            continue
        used = memory(config, plan, global_batch)
        if used["peak"] <= limit:
            best = (plan, seconds, used)
    return best
