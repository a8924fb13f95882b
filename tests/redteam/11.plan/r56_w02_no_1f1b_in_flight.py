# expect: fail under a pipeline it counts one micro-batch's activations on the first stage, not 1F1B's min(pp, m) in flight, so pipeline plans overflow
# hint: peak|fit|memory|headroom|10%|90%|exceed|too (big|much|large)|free|pipeline|1F1B|in flight|micro-batch|stage|activation
import math

from d2lgpu.llama import CONFIGS, parameter_count
from d2lgpu.plan import GPUS, Plan, gpu_memory, step_time
from d2lgpu.scale import formula_bytes


def _divisors(n):
    return [k for k in range(1, n + 1) if n % k == 0]


def _rank_shapes(config, tp, stage, pp):
    d, hd = config.dim, config.dim // config.n_heads
    q, kv, f = config.n_heads // tp * hd, config.n_kv_heads // tp * hd, config.ffn_dim // tp
    block = [(d,), (d,), (q, d), (kv, d), (kv, d), (d, q), (f, d), (f, d), (d, f)]
    shapes = [(config.vocab // tp, d)] if stage == 0 else []
    shapes += block * (config.n_layers // pp)
    if stage == pp - 1:
        shapes += [(d,), (config.vocab // tp, d)]
    return shapes, block


def _peak(config, p, global_batch, stage):
    shapes, block = _rank_shapes(config, p.tp, stage, p.pp)
    sizes = [math.prod(s) for s in shapes]
    psi = sum(sizes)
    state = formula_bytes(psi, p.sharding, p.dp)
    optimizer = state["optimizer"] + 4 * len(sizes)
    if p.sharding == "zero1":
        optimizer = max(optimizer, 8 * max(sizes) + 4)
    kept = state["params"] + state["grads"] + optimizer
    d, t, tp = config.dim, config.seq_len, p.tp
    q = d // tp
    kv = config.n_kv_heads * (d // config.n_heads) // tp
    f = config.ffn_dim // tp
    b = global_batch // (p.dp * p.micro_batches)
    full = 4 * t * (6 * d + 3 * q + 2 * kv + 4 * f)
    per_block = 4 * t * d if p.checkpointing else full
    acts = b * (config.n_layers // p.pp) * per_block
    if p.checkpointing:
        acts += b * full
    if stage == p.pp - 1:
        acts += b * 3 * 4 * t * config.vocab // tp
    if p.sharding == "fsdp2":
        root = (config.vocab // tp * d if stage == 0 else 0)
        root += (d + config.vocab // tp * d) if stage == p.pp - 1 else 0
        gathered = 8 * (root + sum(math.prod(s) for s in block))
        return kept + acts + gathered
    return kept + max(acts, 8 * max(sizes))


def plan(config, gpu, n_gpus, global_batch):
    """The fastest plan whose estimated peak leaves 10% of the GPU free, or None."""
    limit = 0.9 * gpu_memory(gpu)
    sizes = (config.n_heads, config.n_kv_heads, config.ffn_dim, config.vocab)
    best, best_time = None, math.inf
    for tp in (t for t in range(1, 9) if all(s % t == 0 for s in sizes)):
        for pp in _divisors(config.n_layers):
            if n_gpus % (tp * pp):
                continue
            dp = n_gpus // (tp * pp)
            if global_batch % dp:
                continue
            for m in _divisors(global_batch // dp):
                for sharding in ("ddp", "zero1", "fsdp2") if dp > 1 else ("ddp",):
                    for ckpt in (False, True):
                        p = Plan(dp, tp, pp, sharding, m, ckpt)
                        peak = max(_peak(config, p, global_batch, s) for s in {0, pp - 1})
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
