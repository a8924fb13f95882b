"""A training step's time under a parallel plan: a roofline for compute, links for communication.

What it is for: :mod:`d2lgpu.plan` compares plans by their step time, and this is the
model, chapter 11's (sections 11.4 and 11.5) put together:

* **Compute**: the step's FLOPs (:func:`d2lgpu.llama.flops_per_token`, ``6·N`` plus
  attention per token; a third more with activation checkpointing, which runs every
  block's forward again in backward) over the GPUs' dense 16-bit tensor-core peak
  (:mod:`d2lgpu.hardware`'s datasheet: bf16, or fp16 on a T4, which has no bf16) at
  :data:`MFU`, the Llama 3 paper's model-FLOPs utilization (38% to 43% on H100s, Dubey et
  al. 2024, Table 4), the figure chapter 11 plans with. A pipeline adds its bubble:
  1F1B over ``pp`` stages and ``m`` micro-batches takes ``(m + pp - 1) / m`` times the
  ideal (chapter 9's ``(p - 1) / (m + p - 1)`` idle share).
* **Communication**: bytes through each rank's link, by chapter 10's bus-bandwidth
  factors (nccl-tests' ``doc/PERFORMANCE.md``): an all-reduce of ``S`` bytes over ``n``
  ranks moves ``S·2(n-1)/n`` (:func:`d2lgpu.collectives.all_reduce_bandwidth`), an
  all-gather or reduce-scatter half that, a broadcast ``S``; over one direction of the
  slowest link the group crosses (:func:`link_of`).

  - data parallelism: DDP all-reduces the gradients once a step (``4Ψ`` bytes, fp32, for
    the ``Ψ`` parameters of a rank's stage), ZeRO-1 too and then broadcasts the updated
    parameters (``4Ψ``), FSDP2 all-gathers the parameters twice and reduce-scatters the
    gradients for every micro-batch (``12Ψ``: it reshards after forward and backward).
    All of it overlaps the compute (DDP's buckets during backward, FSDP2's prefetch)
    except ZeRO-1's broadcast, which follows the optimizer's step: the step waits only
    for what the compute does not hide.
  - tensor parallelism: four all-reduces of a micro-batch's activations (fp32, ``b·t·d``)
    per block, two in forward and two in backward (six with checkpointing), each on the
    critical path.
  - pipeline parallelism: each micro-batch's activations sent to the next stage and its
    gradient sent back, ``2·b·t·d`` fp32 values.

What it is not: a simulator. Latency, kernel launch gaps, the efficiency lost to small
micro-batches and NCCL's reach below the link's peak are left out (chapter 10 measures
them); MFU is a single number for every plan.
"""

from __future__ import annotations

import re

from .collectives import all_reduce_bandwidth, link_peak
from .hardware import datasheet, peak_flops
from .llama import DecoderConfig, flops_per_token

__all__ = ["GPUS", "GPUS_PER_NODE", "INFINIBAND", "MFU", "gpu_memory", "link_of", "step_time"]

MFU = 0.40  # Llama 3 405B on H100s: 38% to 43% BF16 MFU (Dubey et al. 2024, Table 4)
GPUS_PER_NODE = 8  # an HGX/DGX node: 8 GPUs on one NVSwitch fabric
# One 400 Gb/s InfiniBand NDR port per GPU between nodes (NVIDIA DGX H100 datasheet: eight
# ConnectX-7 ports), one direction, bytes/s; assumed for every GPU's nodes here.
INFINIBAND = 400e9 / 8
# The GPUs the planner knows: in both the datasheet table (peaks, memory) and the link
# table (NVLink, PCIe), T4 to H200, by the part's name.
GPUS = (
    "NVIDIA T4",
    "NVIDIA L4",
    "NVIDIA A100 PCIe 40GB",
    "NVIDIA A100 SXM4 80GB",
    "NVIDIA H100 PCIe 80GB",
    "NVIDIA H100 SXM5 80GB",
    "NVIDIA H200 SXM 141GB",
)


def _check_gpu(gpu: str) -> None:
    if gpu not in GPUS:
        raise ValueError(f"gpu must be one of {', '.join(map(repr, GPUS))}, got {gpu!r}")


def gpu_memory(gpu: str) -> float:
    """The GPU's memory in bytes, as its datasheet states it (``"80 GB HBM3"``: 80e9)."""
    _check_gpu(gpu)
    entry = datasheet(gpu)
    assert entry is not None, f"{gpu} is in GPUS but has no datasheet entry"
    found = re.match(r"\s*([\d.]+)\s*GB", entry.memory)
    assert found, f"{gpu}: expected a memory like '80 GB HBM3', got {entry.memory!r}"
    return float(found.group(1)) * 1e9


def _peak(gpu: str) -> float:
    """Dense 16-bit tensor-core FLOP/s: bf16, or fp16 where the GPU has no bf16 (a T4)."""
    peak = peak_flops(gpu, "bf16") or peak_flops(gpu, "fp16")
    assert peak, f"{gpu} has neither a bf16 nor an fp16 peak in the datasheet table"
    return peak


def link_of(gpu: str, span: int) -> tuple[str, float]:
    """``(name, bytes/s one way)`` of the slowest link a group spanning ``span`` ranks crosses.

    Ranks are laid out tensor-parallel first, then data-parallel, then pipeline, and fill
    nodes of :data:`GPUS_PER_NODE`: a group whose ranks span more than a node crosses
    InfiniBand; inside a node an SXM GPU talks over NVLink, a PCIe card over PCIe (a
    two-card NVLink bridge joins only pairs, and is left out).
    """
    _check_gpu(gpu)
    if span > GPUS_PER_NODE:
        return "InfiniBand NDR", INFINIBAND
    entry = datasheet(gpu)
    kind = "nvlink" if entry is not None and entry.form_factor.startswith("SXM") else "pcie"
    bandwidth = link_peak(gpu, kind)
    assert bandwidth, f"{gpu}: no {kind} entry in d2lgpu.collectives.LINKS"
    return ("NVLink" if kind == "nvlink" else "PCIe"), bandwidth


def _ring(nbytes: float, n: int) -> float:
    """Bytes through each rank's link in a ring all-reduce of ``nbytes`` over ``n`` ranks."""
    if n == 1 or nbytes <= 0:
        return 0.0
    return all_reduce_bandwidth(max(1, round(nbytes)), 1.0, n)[1]


def step_time(
    config: DecoderConfig,
    gpu: str,
    plan,
    global_batch: int,
    stage_params: int,
) -> dict[str, float]:
    """Seconds of one step of ``plan`` (a :class:`d2lgpu.plan.Plan`), by part.

    ``stage_params`` is the parameters a rank holds before data-parallel sharding (its
    stage's, its tensor-parallel shard). Keys: ``compute`` (with the bubble), ``bubble``
    (the share of it), ``tp``, ``pp`` (on the critical path), ``dp`` (all of it) and
    ``dp_exposed`` (what the compute does not hide), ``total``.
    """
    n_gpus = plan.dp * plan.tp * plan.pp
    tokens = global_batch * config.seq_len
    per_token = flops_per_token(config)
    flops = (per_token["matmul"] + per_token["attention"]) * tokens
    if plan.checkpointing:
        flops *= 4 / 3  # forward once more in backward: 8 units of work instead of 6
    m = plan.micro_batches
    ideal = flops / (n_gpus * _peak(gpu) * MFU)
    compute = ideal * (m + plan.pp - 1) / m
    b = global_batch // (plan.dp * m)  # sequences per micro-batch
    act = 4.0 * b * config.seq_len * config.dim  # one micro-batch's activations, fp32
    blocks = config.n_layers // plan.pp
    _, tp_link = link_of(gpu, plan.tp)
    per_block = 6 if plan.checkpointing else 4
    tp = m * blocks * per_block * _ring(act, plan.tp) / tp_link
    _, pp_link = link_of(gpu, n_gpus)
    pp = 0.0 if plan.pp == 1 else m * 2 * act / pp_link
    _, dp_link = link_of(gpu, plan.tp * plan.dp)
    grads = 4.0 * stage_params
    reduce = _ring(grads, plan.dp)  # an all-reduce; a gather or a scatter moves half
    hidden, after = {
        "ddp": (reduce, 0.0),
        "zero1": (reduce, grads if plan.dp > 1 else 0.0),
        "fsdp2": (m * 3 * reduce / 2, 0.0),
    }[plan.sharding]
    dp = (hidden + after) / dp_link
    exposed = max(0.0, hidden / dp_link - compute) + after / dp_link
    return {
        "compute": compute,
        "bubble": 1 - ideal / compute,
        "tp": tp,
        "pp": pp,
        "dp": dp,
        "dp_exposed": exposed,
        "total": compute + tp + pp + exposed,
    }
