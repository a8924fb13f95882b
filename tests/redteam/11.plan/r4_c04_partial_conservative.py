# expect: pass
# hint: 
import functools
from math import ceil

from d2lgpu.plan import Plan, gpu_memory, step_time
from d2lgpu.scale import formula_bytes


def _estimate(config, p, batch):
    """A deliberately cautious estimate: Adam's temporaries and activations added, not
    maxed; every stage holds min(pp, m) micro-batches and the root layers' state."""
    t, d = config.seq_len, config.dim
    hd = d // config.n_heads
    q, kv, f = d // p.tp, config.n_kv_heads * hd // p.tp, config.ffn_dim // p.tp
    block = 2 * d * q + 2 * d * kv + 3 * d * f + 2 * d
    root = 2 * config.vocab // p.tp * d + d
    psi = config.n_layers // p.pp * block + root
    state = sum(formula_bytes(psi, p.sharding, p.dp).values())
    b = batch // p.dp // p.micro_batches
    held = min(p.pp, p.micro_batches)
    per_block = 4 * t * (6 * d + 3 * q + 2 * kv + 4 * f)
    blocks = config.n_layers // p.pp
    acts = b * held * blocks * (4 * t * d if p.checkpointing else per_block)
    acts += b * per_block * p.checkpointing + b * 3 * 4 * t * config.vocab // p.tp
    largest = config.vocab // p.tp * d
    if p.sharding == "fsdp2":
        largest = ceil(largest / p.dp)
        acts += 2 * 4 * (block + 2 * config.vocab // p.tp * d)
    return state + 2 * 4 * largest + acts


def _plan(config, gpu, n_gpus, global_batch, *, free=0.1):
    limit = (1 - free) * gpu_memory(gpu)
    tps = [k for k in (1, 2, 4, 8) if k <= n_gpus and not any(
        x % k for x in (config.n_heads, config.n_kv_heads, config.ffn_dim, config.vocab))]
    options = (
        Plan(n_gpus // (tp * pp), tp, pp, s, m, ck)
        for tp in tps
        for pp in range(1, n_gpus // tp + 1)
        if n_gpus % (tp * pp) == 0 and config.n_layers % pp == 0
        and global_batch % (n_gpus // (tp * pp)) == 0
        for m in range(1, global_batch // (n_gpus // (tp * pp)) + 1)
        if (global_batch // (n_gpus // (tp * pp))) % m == 0
        for s in ("ddp", "zero1", "fsdp2")
        for ck in (False, True)
    )
    fits = [p for p in options if _estimate(config, p, global_batch) <= limit]
    best = min(fits, key=lambda p: step_time(config, gpu, p, global_batch)["total"], default=None)
    if best is None:
        return None
    return {"sharding": best.sharding, "checkpointing": bool(best.checkpointing),
            "micro_batches": best.micro_batches, "pp": best.pp, "tp": best.tp, "dp": best.dp}


answer = functools.partial(_plan, free=0.1)
