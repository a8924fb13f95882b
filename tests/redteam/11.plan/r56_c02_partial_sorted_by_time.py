# expect: pass functools.partial over a general search that sorts every legal plan by step time and returns the first that fits, as a dict without the default keys
# hint:
# name: plan
import functools
import math

from d2lgpu.plan import Plan, gpu_memory, step_time
from d2lgpu.scale import formula_bytes

DEFAULTS = {"tp": 1, "pp": 1, "sharding": "ddp", "micro_batches": 1, "checkpointing": False}


def _legal(config, n_gpus, global_batch, node):
    heads_etc = (config.n_heads, config.n_kv_heads, config.ffn_dim, config.vocab)
    tps = [t for t in range(1, node + 1) if all(x % t == 0 for x in heads_etc)]
    pps = [p for p in range(1, config.n_layers + 1) if config.n_layers % p == 0]
    for tp in tps:
        for pp in pps:
            if n_gpus % (tp * pp):
                continue
            dp = n_gpus // (tp * pp)
            if global_batch % dp:
                continue
            rows = global_batch // dp
            for m in (k for k in range(1, rows + 1) if rows % k == 0):
                for sharding in ("ddp", "zero1", "fsdp2")[: 3 if dp > 1 else 1]:
                    yield Plan(dp, tp, pp, sharding, m, False)
                    yield Plan(dp, tp, pp, sharding, m, True)


def _stage(config, tp, stage, pp):
    """(numel of each tensor the rank holds, numel of one block, numel of the root's tensors)."""
    d, hd = config.dim, config.dim // config.n_heads
    q, kv, f = config.n_heads // tp * hd, config.n_kv_heads // tp * hd, config.ffn_dim // tp
    block = [d, d, q * d, kv * d, kv * d, d * q, f * d, f * d, d * f]
    table = config.vocab // tp * d
    first, last = stage == 0, stage == pp - 1
    numels = ([table] if first else []) + block * (config.n_layers // pp) + ([d, table] if last else [])
    root = (table if first else 0) + (d + table if last else 0)
    return numels, sum(block), root


def _bytes(config, p, global_batch, stage):
    numels, block, root = _stage(config, p.tp, stage, p.pp)
    state = formula_bytes(sum(numels), p.sharding, p.dp)
    moments = state["optimizer"]
    if p.sharding == "zero1":
        moments = max(moments, 8 * max(numels))  # ZeRO-1 hands out whole tensors
    state_total = state["params"] + state["grads"] + moments + 4 * len(numels)

    t, d = config.seq_len, config.dim
    widths = 6 * d + (3 * d + 2 * config.n_kv_heads * (d // config.n_heads) + 4 * config.ffn_dim) // p.tp
    block_acts = 4 * t * widths
    seqs = global_batch // (p.dp * p.micro_batches)
    saved = (4 * t * d if p.checkpointing else block_acts) * (config.n_layers // p.pp) * seqs
    if stage == 0 and p.pp > 1:
        saved *= min(p.pp, p.micro_batches)
    saved += seqs * block_acts if p.checkpointing else 0
    saved += 12 * t * (config.vocab // p.tp) * seqs if stage == p.pp - 1 else 0

    if p.sharding == "fsdp2":
        return state_total + saved + 8 * (root + block)
    return state_total + max(saved, 8 * max(numels))


def _search(config, gpu, n_gpus, global_batch, *, headroom, node):
    budget = (1 - headroom) * gpu_memory(gpu)
    timed = sorted(
        (step_time(config, gpu, p, global_batch)["total"], i, p)
        for i, p in enumerate(_legal(config, n_gpus, global_batch, node))
    )
    for _, _, p in timed:
        if max(_bytes(config, p, global_batch, s) for s in {0, p.pp - 1}) <= budget:
            chosen = {"dp": p.dp, "tp": p.tp, "pp": p.pp, "sharding": p.sharding,
                      "micro_batches": p.micro_batches, "checkpointing": p.checkpointing}
            return {k: v for k, v in chosen.items() if DEFAULTS.get(k, object()) != v}
    return None


plan = functools.partial(_search, headroom=0.10, node=8)
