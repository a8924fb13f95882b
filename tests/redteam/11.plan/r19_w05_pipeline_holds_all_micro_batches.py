# expect: fail under a pipeline the first stage holds all m micro-batches (GPipe) instead of 1F1B's min(pp, m)
# hint: 1F1B|min\(pp|in flight|gpipe|micro.?batch|pipeline
import math

from d2lgpu.plan import Plan, gpu_memory, step_time
from d2lgpu.scale import formula_bytes


def _divisors(n, top=None):
    top = n if top is None else min(n, top)
    return [k for k in range(1, top + 1) if n % k == 0]


def _rank_tensors(c, tp, stage, pp):
    d, hd = c.dim, c.dim // c.n_heads
    q, kv, f = c.n_heads // tp * hd, c.n_kv_heads // tp * hd, c.ffn_dim // tp
    block = [d, d, q * d, kv * d, kv * d, d * q, f * d, f * d, d * f]
    out = [c.vocab // tp * d] if stage == 0 else []
    out += block * (c.n_layers // pp)
    if stage == pp - 1:
        out += [d, c.vocab // tp * d]
    return out, block


def _peak(c, p, global_batch, stage):
    tensors, block = _rank_tensors(c, p.tp, stage, p.pp)
    state = sum(formula_bytes(sum(tensors), p.sharding, p.dp).values())
    t, d = c.seq_len, c.dim
    q = d / p.tp
    kv = c.n_kv_heads * (d // c.n_heads) / p.tp
    f = c.ffn_dim / p.tp
    b = global_batch / (p.dp * p.micro_batches)
    full = 4 * t * (6 * d + 3 * q + 2 * kv + 4 * f)
    blocks = c.n_layers // p.pp
    per_seq = blocks * 4 * t * d + full if p.checkpointing else blocks * full
    acts = b * per_seq
    if p.pp > 1 and stage == 0:
        acts *= p.micro_batches  # every micro-batch's forward runs before the backwards
    if stage == p.pp - 1:
        acts += b * 3 * 4 * t * c.vocab / p.tp
    if p.sharding == "fsdp2":
        root = (c.vocab // p.tp * d if stage == 0 else 0)
        root += (d + c.vocab // p.tp * d if stage == p.pp - 1 else 0)
        return state + acts + 2 * 4 * (root + sum(block))
    return state + max(acts, 2 * 4 * max(tensors))


def _plans(c, n_gpus, global_batch):
    sizes = (c.n_heads, c.n_kv_heads, c.ffn_dim, c.vocab)
    for tp in [t for t in range(1, 9) if all(s % t == 0 for s in sizes)]:
        for pp in _divisors(c.n_layers):
            if n_gpus % (tp * pp):
                continue
            dp = n_gpus // (tp * pp)
            if global_batch % dp:
                continue
            for m in _divisors(global_batch // dp):
                for sharding in ("ddp", "zero1", "fsdp2"):
                    for ckpt in (False, True):
                        yield Plan(dp, tp, pp, sharding, m, ckpt)


def plan(config, gpu, n_gpus, global_batch):
    """The fastest plan whose estimated peak leaves 10% of the GPU free, or None."""
    limit = 0.9 * gpu_memory(gpu)
    best, best_s = None, math.inf
    for p in _plans(config, n_gpus, global_batch):
        if max(_peak(config, p, global_batch, s) for s in {0, p.pp - 1}) > limit:
            continue
        s = step_time(config, gpu, p, global_batch)["total"]
        if s < best_s:
            best, best_s = p, s
    if best is None:
        return None
    return {"dp": best.dp, "tp": best.tp, "pp": best.pp, "sharding": best.sharding,
            "micro_batches": best.micro_batches, "checkpointing": best.checkpointing}


answer = plan
