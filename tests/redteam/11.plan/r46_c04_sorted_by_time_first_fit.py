# expect: pass candidates filtered with plan_problems, sorted by step_time, the first whose estimate fits; state from formula_bytes plus counters, ZeRO-1's heaviest rank dealt
# hint:
import math

from d2lgpu.plan import Plan, gpu_memory, plan_problems, step_time
from d2lgpu.scale import formula_bytes


def _shapes(config, tp, pp, stage):
    d = config.dim
    hd = d // config.n_heads
    q, kv = config.n_heads * hd // tp, config.n_kv_heads * hd // tp
    f, v = config.ffn_dim // tp, config.vocab // tp
    block = [(d, 1), (d, 1), (q, d), (kv, d), (kv, d), (d, q), (f, d), (f, d), (d, f)]
    out = ([(v, d)] if stage == 0 else []) + block * (config.n_layers // pp)
    if stage == pp - 1:
        out += [(d, 1), (v, d)]
    return out, block


def _state_bytes(shapes, sharding, dp):
    """Chapter 10's formulas, corrected where 11.2 found them short."""
    sizes = [r * c for r, c in shapes]
    psi = sum(sizes)
    if sharding == "fsdp2":  # padded shards of ceil(rows / dp) rows
        local = sum(math.ceil(r / dp) * c for r, c in shapes)
        return 16 * local + 4 * len(sizes), 2 * 4 * max(math.ceil(r / dp) * c for r, c in shapes)
    base = formula_bytes(psi, sharding, dp)
    state = base["params"] + base["grads"]
    if sharding == "ddp":
        state += base["optimizer"] + 4 * len(sizes)
    else:  # ZeRO-1 deals whole tensors: the heaviest rank, not 8 psi / dp
        held, owned = [0] * dp, [0] * dp
        for n in sorted(sizes, reverse=True):
            r = held.index(min(held))
            held[r] += n
            owned[r] += 8 * n + 4
        state += max(owned)
    return state, 2 * 4 * max(sizes)


def _activations(config, p, global_batch, first, last):
    d, t = config.dim, config.seq_len
    hd = d // config.n_heads
    q, kv = config.n_heads * hd // p.tp, config.n_kv_heads * hd // p.tp
    f, v = config.ffn_dim // p.tp, config.vocab // p.tp
    seqs = global_batch // p.dp // p.micro_batches
    blocks = config.n_layers // p.pp
    one_block = 4 * t * (6 * d + 3 * q + 2 * kv + 4 * f)
    in_flight = min(p.pp, p.micro_batches) if (p.pp > 1 and first) else 1
    head = 3 * 4 * t * (v + d) * seqs if last else 0
    if p.checkpointing:
        return blocks * 4 * t * d * seqs * in_flight + max(head, 1.2 * one_block * seqs)
    return blocks * one_block * seqs * in_flight + head


def estimate(config, p, global_batch):
    worst = 0
    for stage in {0, p.pp - 1}:
        first, last = stage == 0, stage == p.pp - 1
        shapes, block = _shapes(config, p.tp, p.pp, stage)
        state, adam_temps = _state_bytes(shapes, p.sharding, p.dp)
        acts = _activations(config, p, global_batch, first, last)
        if p.sharding == "fsdp2":
            v, d = config.vocab // p.tp, config.dim
            acts += 2 * 4 * (v * d * (first + last) + sum(r * c for r, c in block))
        worst = max(worst, state + max(acts, adam_temps))
    return worst


def plan(config, gpu, n_gpus, global_batch):
    """The fastest plan whose estimated peak leaves 10% of the GPU free, or None."""
    candidates = []
    for tp in range(1, 9):
        for pp in range(1, config.n_layers + 1):
            if n_gpus % (tp * pp):
                continue
            dp = n_gpus // (tp * pp)
            for m in range(1, global_batch + 1):
                for sharding in ("ddp", "zero1", "fsdp2"):
                    for ckpt in (False, True):
                        p = Plan(dp, tp, pp, sharding, m, ckpt)
                        if global_batch % (dp * m) == 0 and not plan_problems(p, config, n_gpus, global_batch):
                            candidates.append(p)
    candidates.sort(key=lambda p: step_time(config, gpu, p, global_batch)["total"])
    limit = 0.9 * gpu_memory(gpu)
    for p in candidates:
        if estimate(config, p, global_batch) <= limit:
            return {
                "dp": p.dp,
                "tp": p.tp,
                "pp": p.pp,
                "sharding": p.sharding,
                "micro_batches": p.micro_batches,
                "checkpointing": p.checkpointing,
            }
    return None


answer = plan
