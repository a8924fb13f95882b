# expect: fail counts one micro-batch of activations on every pipeline stage, forgetting that 1F1B's first stage holds min(pp, m) micro-batches at once
# hint: in.?flight|1F1B|min\(pp|at once|first (pipeline )?stage|stage 0|pipeline|held|activations
# Wrong: the prompt says 1F1B's first stage holds min(pp, m) micro-batches; the 70B run on
# 32 H100s then picks pp = 8 with 32 micro-batches, whose first stage needs far over 80 GB.

import math

from d2lgpu.plan import Plan, gpu_memory, step_time
from d2lgpu.scale import formula_bytes

F32 = 4  # bytes of a float32


def _divisors(n):
    return [k for k in range(1, n + 1) if n % k == 0]


def _stage_tensors(config, tp, stage, pp):
    """Element counts of the tensors one rank holds: its stage, a tp-th of every matrix."""
    d, f, vocab = config.dim, config.ffn_dim, config.vocab
    kv = config.n_kv_heads * (d // config.n_heads)
    block = [d, d * d // tp, d * kv // tp, d * kv // tp, d * d // tp, d,
             d * f // tp, d * f // tp, f * d // tp]  # fmt: skip
    sizes = [vocab * d // tp] if stage == 0 else []
    sizes += block * (config.n_layers // pp)
    if stage == pp - 1:
        sizes += [d, vocab * d // tp]
    return sizes, block


def _peak(config, p, global_batch, stage):
    """Estimated peak bytes of one rank of pipeline stage `stage` under plan p."""
    sizes, block = _stage_tensors(config, p.tp, stage, p.pp)
    psi, largest = sum(sizes), max(sizes)
    state = formula_bytes(psi, p.sharding, p.dp)
    optimizer = state["optimizer"]
    if p.sharding == "zero1":  # whole tensors: at least the largest one's moments
        optimizer = max(optimizer, 2 * F32 * largest)
    kept = state["params"] + state["grads"] + optimizer + F32 * len(sizes)  # + step counters
    t, d = config.seq_len, config.dim
    q = d / p.tp
    kv = config.n_kv_heads * (d // config.n_heads) / p.tp
    f = config.ffn_dim / p.tp
    full = F32 * t * (6 * d + 3 * q + 2 * kv + 4 * f)  # one block, one sequence
    b = global_batch // (p.dp * p.micro_batches)  # sequences per micro-batch
    per_block = F32 * t * d if p.checkpointing else full
    acts = b * (config.n_layers // p.pp) * per_block
    if p.checkpointing:
        acts += b * full  # one block recomputed at a time
    if stage == p.pp - 1:
        acts += b * 3 * F32 * t * config.vocab / p.tp  # logits, log-softmax, gradient
    shard = p.dp if p.sharding == "fsdp2" else 1
    adam_temps = 2 * F32 * math.ceil(largest / shard)
    if p.sharding == "fsdp2":
        roots = (stage == 0) + (stage == p.pp - 1)
        gathered = 2 * F32 * (roots * (config.vocab * d // p.tp) + sum(block))
        return kept + max(adam_temps, acts + gathered)
    return kept + max(adam_temps, acts)


def _allowed_tp(config):
    sizes = (config.n_heads, config.n_kv_heads, config.ffn_dim, config.vocab)
    return [t for t in range(1, 9) if all(s % t == 0 for s in sizes)]


def answer(config, gpu, n_gpus, global_batch):
    limit = 0.9 * gpu_memory(gpu)
    best, best_seconds = None, math.inf
    for tp in _allowed_tp(config):
        for pp in _divisors(config.n_layers):
            if n_gpus % (tp * pp):
                continue
            dp = n_gpus // (tp * pp)
            if global_batch % dp:
                continue
            for m in _divisors(global_batch // dp):
                for sharding in ("ddp", "zero1", "fsdp2"):
                    for checkpointing in (False, True):
                        p = Plan(dp, tp, pp, sharding, m, checkpointing)
                        seconds = step_time(config, gpu, p, global_batch)["total"]
                        if seconds >= best_seconds:
                            continue
                        peak = max(_peak(config, p, global_batch, s) for s in {0, pp - 1})
                        if peak <= limit:
                            best, best_seconds = p, seconds
    if best is None:
        return None
    return {
        "dp": best.dp,
        "tp": best.tp,
        "pp": best.pp,
        "sharding": best.sharding,
        "micro_batches": best.micro_batches,
        "checkpointing": best.checkpointing,
    }
