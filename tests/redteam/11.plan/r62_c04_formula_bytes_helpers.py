# expect: pass sizes the state with d2lgpu.scale.formula_bytes (ZeRO-1 at least the largest tensor's moments, FSDP2's shards rounded up per tensor) and checks plans with the public allowed_tp and plan_problems helpers
# hint:
import math

from d2lgpu.plan import Plan, allowed_tp, gpu_memory, plan_problems, step_time
from d2lgpu.scale import formula_bytes


def _shapes(config, tp, stage, pp):
    d = config.dim
    hd = d // config.n_heads
    q, kv, f = config.n_heads // tp * hd, config.n_kv_heads // tp * hd, config.ffn_dim // tp
    block = [(d,), (d,), (q, d), (kv, d), (kv, d), (d, q), (f, d), (f, d), (d, f)]
    stage_shapes = [(config.vocab // tp, d)] * (stage == 0) + block * (config.n_layers // pp)
    stage_shapes += [(d,), (config.vocab // tp, d)] * (stage == pp - 1)
    return stage_shapes, block


def _state(shapes, sharding, dp):
    psi = sum(math.prod(s) for s in shapes)
    parts = formula_bytes(psi, sharding, dp)
    counters = 4 * len(shapes)  # Adam's step, one per tensor
    if sharding == "zero1":
        largest = max(math.prod(s) for s in shapes)
        parts["optimizer"] = max(parts["optimizer"], 8 * largest) + counters
    elif sharding == "fsdp2":  # the formula's 16 psi / dp, with each shard rounded up to whole rows
        padded = sum(math.ceil(s[0] / dp) * math.prod(s[1:]) for s in shapes)
        parts = {"params": 4 * padded, "grads": 4 * padded, "optimizer": 8 * padded + counters}
    else:
        parts["optimizer"] += counters
    return sum(parts.values())


def _activations(config, p, global_batch, stage):
    t, d = config.seq_len, config.dim
    hd = d // config.n_heads
    q, kv, f = d // p.tp, config.n_kv_heads * hd // p.tp, config.ffn_dim // p.tp
    one_block = 4 * t * (6 * d + 3 * q + 2 * kv + 4 * f)
    blocks = config.n_layers // p.pp
    saved = (blocks * 4 * t * d + one_block) if p.checkpointing else blocks * one_block
    if stage == p.pp - 1:
        saved += 12 * t * (config.vocab // p.tp)
    micro = global_batch // (p.dp * p.micro_batches)
    return (min(p.pp, p.micro_batches) if stage == 0 and p.pp > 1 else 1) * micro * saved


def estimate(config, p, global_batch):
    worst = 0
    for stage in {0, p.pp - 1}:
        shapes, block = _shapes(config, p.tp, stage, p.pp)
        acts = _activations(config, p, global_batch, stage)
        if p.sharding == "fsdp2":
            table = config.vocab // p.tp * config.dim  # the embedding's or the output layer's slice
            root = table * (stage == 0) + (config.dim + table) * (stage == p.pp - 1)
            extra = acts + 8 * (root + sum(math.prod(s) for s in block))
        else:
            extra = max(acts, 8 * max(math.prod(s) for s in shapes))
        worst = max(worst, _state(shapes, p.sharding, p.dp) + extra)
    return worst


def plan(config, gpu, n_gpus, global_batch):
    limit = 0.9 * gpu_memory(gpu)
    best, best_time = None, float("inf")
    for tp in allowed_tp(config):
        for pp in range(1, config.n_layers + 1):
            if n_gpus % (tp * pp):
                continue
            dp = n_gpus // (tp * pp)
            if global_batch % dp:
                continue
            for m in (k for k in range(1, global_batch // dp + 1) if global_batch // dp % k == 0):
                for sharding in ("ddp", "zero1", "fsdp2") if dp > 1 else ("ddp",):
                    for ckpt in (False, True):
                        p = Plan(dp, tp, pp, sharding, m, ckpt)
                        if plan_problems(p, config, n_gpus, global_batch):
                            continue
                        if estimate(config, p, global_batch) > limit:
                            continue
                        seconds = step_time(config, gpu, p, global_batch)["total"]
                        if seconds < best_time:
                            best, best_time = p, seconds
    if best is None:
        return None
    return {"dp": best.dp, "tp": best.tp, "pp": best.pp, "sharding": best.sharding,
            "micro_batches": best.micro_batches, "checkpointing": best.checkpointing}


answer = plan
