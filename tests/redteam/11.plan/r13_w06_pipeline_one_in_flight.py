# expect: fail 1F1B first stage counted with one micro-batch in flight
# hint: pipeline|1f1b|in flight|micro.?batch|stage|\bpp\b
import math

from d2lgpu.plan import Plan, gpu_memory, step_time
from d2lgpu.scale import formula_bytes


def rank_tensors(config, tp, stage, pp):
    """Numbers of elements of the tensors one rank holds: its stage, a tp-th of each matrix."""
    d = config.dim
    kv = config.n_kv_heads * (d // config.n_heads)
    f = config.ffn_dim
    block = [d * d // tp, d * kv // tp, d * kv // tp, d * d // tp,
             d * f // tp, d * f // tp, f * d // tp, d, d]  # q k v o gate up down, two norms
    tensors = []
    if stage == 0:
        tensors.append(config.vocab * d // tp)  # embedding
    tensors += block * (config.n_layers // pp)
    if stage == pp - 1:
        tensors += [d, config.vocab * d // tp]  # final norm, output layer
    return tensors, block


def estimate(config, p, global_batch, stage):
    """My estimate of one rank's peak bytes on pipeline stage `stage`."""
    tensors, block = rank_tensors(config, p.tp, stage, p.pp)
    state = sum(formula_bytes(sum(tensors), p.sharding, p.dp).values())
    t, d = config.seq_len, config.dim
    q = d / p.tp
    kv = config.n_kv_heads * (d // config.n_heads) / p.tp
    f = config.ffn_dim / p.tp
    b = global_batch // (p.dp * p.micro_batches)  # sequences per micro-batch
    full_block = 4 * t * (6 * d + 3 * q + 2 * kv + 4 * f)
    blocks = config.n_layers // p.pp
    if p.checkpointing:
        acts = b * (blocks * 4 * t * d + full_block)
    else:
        acts = b * blocks * full_block
    if stage == p.pp - 1:
        acts += b * 3 * 4 * t * config.vocab / p.tp  # logits, log-softmax, gradient
    if p.sharding == "fsdp2":
        root = 4 * 2 * config.vocab * d / p.tp
        gathered = 2 * (root + 4 * sum(block))
        return state + acts + gathered
    adam_tmp = 2 * 4 * max(tensors)
    return state + max(acts, adam_tmp)


def candidates(config, n_gpus, global_batch):
    sizes = (config.n_heads, config.n_kv_heads, config.ffn_dim, config.vocab)
    for tp in range(1, 9):
        if any(s % tp for s in sizes):
            continue
        for pp in range(1, config.n_layers + 1):
            if config.n_layers % pp or n_gpus % (tp * pp):
                continue
            dp = n_gpus // (tp * pp)
            if global_batch % dp:
                continue
            per_rank = global_batch // dp
            for m in range(1, per_rank + 1):
                if per_rank % m:
                    continue
                for sharding in ("ddp", "zero1", "fsdp2"):
                    for ckpt in (False, True):
                        yield Plan(dp, tp, pp, sharding, m, ckpt)


def plan(config, gpu, n_gpus, global_batch):
    """The fastest plan whose estimated peak leaves 10% of the GPU free, or None."""
    limit = 0.9 * gpu_memory(gpu)
    best, best_time = None, math.inf
    for p in candidates(config, n_gpus, global_batch):
        peak = max(estimate(config, p, global_batch, s) for s in {0, p.pp - 1})
        if peak > limit:
            continue
        seconds = step_time(config, gpu, p, global_batch)["total"]
        if seconds < best_time:
            best, best_time = p, seconds
    if best is None:
        return None
    return {"dp": best.dp, "tp": best.tp, "pp": best.pp, "sharding": best.sharding,
            "micro_batches": best.micro_batches, "checkpointing": best.checkpointing}


answer = plan
