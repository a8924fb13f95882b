# expect: pass itertools.product over the degrees, exact state from the shapes (padded FSDP2 rows, step counters, ZeRO-1's dealt tensors), returns the Plan object
# hint: 
import itertools
import math

from d2lgpu.plan import Plan, gpu_memory, step_time

F32 = 4  # bytes


def _shapes(c, tp, stage, pp):
    """The parameter shapes a rank of stage `stage` holds, tensor-parallel shard tp."""
    d, hd = c.dim, c.dim // c.n_heads
    q, kv, f = c.n_heads // tp * hd, c.n_kv_heads // tp * hd, c.ffn_dim // tp
    block = [(d,), (q, d), (kv, d), (kv, d), (d, q), (d,), (f, d), (f, d), (d, f)]
    out = [(c.vocab // tp, d)] if stage == 0 else []
    out += block * (c.n_layers // pp)
    if stage == pp - 1:
        out += [(d,), (c.vocab // tp, d)]
    return out, block


def _state(shapes, sharding, dp):
    numels = [math.prod(s) for s in shapes]
    total = sum(numels)
    if sharding == "fsdp2":
        local = sum(math.ceil(s[0] / dp) * math.prod(s[1:]) for s in shapes)
        return F32 * local * 4 + 4 * len(shapes)  # weights, grads, two moments; counters
    moments = 2 * F32 * total + 4 * len(shapes)
    if sharding == "zero1":  # whole tensors, largest first, to the least-loaded rank
        load, state = [0] * dp, [0] * dp
        for n in sorted(numels, reverse=True):
            r = load.index(min(load))
            load[r] += n
            state[r] += 2 * F32 * n + 4
        moments = max(state)
    return 2 * F32 * total + moments


def _peak(c, p, batch, stage):
    shapes, block = _shapes(c, p.tp, stage, p.pp)
    state = _state(shapes, p.sharding, p.dp)
    t, d = c.seq_len, c.dim
    q, kv, f = d / p.tp, c.n_kv_heads * (d // c.n_heads) / p.tp, c.ffn_dim / p.tp
    seqs = batch / (p.dp * p.micro_batches)
    layers = c.n_layers // p.pp
    whole = F32 * t * (6 * d + 3 * q + 2 * kv + 4 * f)
    per_seq = layers * F32 * t * d + whole if p.checkpointing else layers * whole
    acts = seqs * per_seq * (min(p.pp, p.micro_batches) if stage == 0 and p.pp > 1 else 1)
    if stage == p.pp - 1:
        acts += seqs * 3 * F32 * t * c.vocab / p.tp
    if p.sharding == "fsdp2":
        root = sum(math.prod(s) for s in shapes if len(s) == 2 and s[0] == c.vocab // p.tp)
        root += d if stage == p.pp - 1 else 0
        return state + acts + 2 * F32 * (root + sum(math.prod(s) for s in block))
    return state + max(acts, 2 * F32 * max(math.prod(s) for s in shapes))


def plan(config, gpu, n_gpus, global_batch):
    """The fastest plan whose estimated peak leaves 10% of the GPU free, or None."""
    c = config
    tps = [t for t in range(1, 9) if not any(x % t for x in (c.n_heads, c.n_kv_heads, c.ffn_dim, c.vocab))]
    pps = [p for p in range(1, c.n_layers + 1) if c.n_layers % p == 0]
    budget = 0.9 * gpu_memory(gpu)
    fitting = []
    for tp, pp, sharding, ckpt in itertools.product(tps, pps, ("ddp", "zero1", "fsdp2"), (False, True)):
        if n_gpus % (tp * pp):
            continue
        dp = n_gpus // (tp * pp)
        if global_batch % dp:
            continue
        per_rank = global_batch // dp
        for m in (m for m in range(1, per_rank + 1) if per_rank % m == 0):
            p = Plan(dp=dp, tp=tp, pp=pp, sharding=sharding, micro_batches=m, checkpointing=ckpt)
            if all(_peak(c, p, global_batch, s) <= budget for s in {0, pp - 1}):
                fitting.append((step_time(c, gpu, p, global_batch)["total"], p))
    if not fitting:
        return None
    return min(fitting, key=lambda pair: pair[0])[1]


answer = plan
