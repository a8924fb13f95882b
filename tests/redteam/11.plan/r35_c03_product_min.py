# expect: pass an itertools.product search with min(key=(tier, step time)), state counted per tensor (FSDP2's padded ceil(rows/dp) shards, ZeRO-1 dealt largest first), cached per stage with lru_cache, returning a d2lgpu.plan.Plan.
# hint:
# name: plan
import functools
import itertools
import math

from d2lgpu.plan import Plan, gpu_memory, step_time


def _divisors(n):
    return tuple(k for k in range(1, n + 1) if n % k == 0)


@functools.lru_cache(maxsize=None)
def _tensors(config, tp, stage, pp):
    """Shapes of the parameters one rank holds: its stage, a tp-th of each matrix and of the vocabulary."""
    d, hd = config.dim, config.dim // config.n_heads
    q, kv, f = config.n_heads // tp * hd, config.n_kv_heads // tp * hd, config.ffn_dim // tp
    block = ((d,), (d,), (q, d), (kv, d), (kv, d), (d, q), (f, d), (f, d), (d, f))
    head = ((config.vocab // tp, d),) if stage == 0 else ()
    tail = ((d,), (config.vocab // tp, d)) if stage == pp - 1 else ()
    return head + block * (config.n_layers // pp) + tail, block


@functools.lru_cache(maxsize=None)
def _state(config, tp, stage, pp, sharding, dp):
    shapes, block = _tensors(config, tp, stage, pp)
    numel = [math.prod(s) for s in shapes]
    if sharding == "fsdp2":
        local = sum(-(-s[0] // dp) * math.prod(s[1:]) for s in shapes)
        state = 16 * local + 4 * len(shapes)
    elif sharding == "zero1":
        load, count = [0] * dp, [0] * dp
        for n in sorted(numel, reverse=True):
            r = min(range(dp), key=lambda i: (load[i], i))
            load[r] += n
            count[r] += 1
        state = 8 * sum(numel) + max(8 * l + 4 * k for l, k in zip(load, count))
    else:
        state = 16 * sum(numel) + 4 * len(shapes)
    besides = 8 * max(numel)  # Adam's two temporaries of the largest tensor
    if sharding == "fsdp2":  # the root's and one block's parameters, gathered twice over
        root = (numel[0] if stage == 0 else 0) + (numel[-1] if stage == pp - 1 else 0)
        besides = 8 * (root + sum(math.prod(s) for s in block))
    return state, besides


def _activations(config, p, batch, stage):
    t, d = config.seq_len, config.dim
    hd = d // config.n_heads
    q, kv, f = config.n_heads // p.tp * hd, config.n_kv_heads // p.tp * hd, config.ffn_dim // p.tp
    seqs = batch // (p.dp * p.micro_batches)
    whole_block = 4 * t * (6 * d + 3 * q + 2 * kv + 4 * f) * seqs
    kept = 4 * t * d * seqs if p.checkpointing else whole_block
    in_flight = min(p.pp, p.micro_batches) if stage == 0 and p.pp > 1 else 1
    acts = in_flight * (config.n_layers // p.pp) * kept
    acts += whole_block if p.checkpointing else 0
    acts += 3 * 4 * t * (config.vocab // p.tp) * seqs if stage == p.pp - 1 else 0
    return acts


def _peak(config, p, batch):
    worst = 0
    for stage in {0, p.pp - 1}:
        state, besides = _state(config, p.tp, stage, p.pp, p.sharding, p.dp)
        acts = _activations(config, p, batch, stage)
        over = acts + besides if p.sharding == "fsdp2" else max(acts, besides)
        worst = max(worst, state + over)
    return worst


def _legal(config, n_gpus, batch):
    splits = (config.n_heads, config.n_kv_heads, config.ffn_dim, config.vocab)
    tps = [t for t in range(1, 9) if all(s % t == 0 for s in splits)]
    for tp, pp in itertools.product(tps, _divisors(config.n_layers)):
        if n_gpus % (tp * pp) or batch % (n_gpus // (tp * pp)):
            continue
        dp = n_gpus // (tp * pp)
        shardings = ("ddp", "zero1", "fsdp2") if dp > 1 else ("ddp",)
        for m, sharding, ckpt in itertools.product(_divisors(batch // dp), shardings, (False, True)):
            yield Plan(dp, tp, pp, sharding, m, ckpt)


def plan(config, gpu, n_gpus, global_batch):
    limit = 0.9 * gpu_memory(gpu)
    scored = []
    for p in _legal(config, n_gpus, global_batch):
        peak = _peak(config, p, global_batch)
        if peak <= limit:
            tier = 0 if peak * 1.05 <= limit else 1  # prefer 5% of slack when any plan has it
            scored.append(((tier, step_time(config, gpu, p, global_batch)["total"]), p))
    return min(scored, key=lambda item: item[0])[1] if scored else None


answer = plan
