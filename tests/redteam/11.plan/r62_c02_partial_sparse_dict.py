# expect: pass a general search with the headroom as a keyword, bound with functools.partial; returns only the keys that differ from their defaults
# hint:
import functools
import itertools
import math

from d2lgpu.plan import Plan, gpu_memory, step_time

DEFAULTS = {"tp": 1, "pp": 1, "sharding": "ddp", "micro_batches": 1, "checkpointing": False}


def _divisors(n):
    return [k for k in range(1, n + 1) if n % k == 0]


def _rank_shapes(c, tp, first, last, blocks):
    hd = c.dim // c.n_heads
    block = [(c.dim,), (c.dim,), (c.n_heads * hd // tp, c.dim), (c.n_kv_heads * hd // tp, c.dim),
             (c.n_kv_heads * hd // tp, c.dim), (c.dim, c.n_heads * hd // tp),
             (c.ffn_dim // tp, c.dim), (c.ffn_dim // tp, c.dim), (c.dim, c.ffn_dim // tp)]
    shapes = ([(c.vocab // tp, c.dim)] if first else []) + block * blocks
    if last:
        shapes += [(c.dim,), (c.vocab // tp, c.dim)]
    return shapes, block


def _estimate(c, p, batch, first, last):
    shapes, block = _rank_shapes(c, p.tp, first, last, c.n_layers // p.pp)
    numel = [math.prod(s) for s in shapes]
    if p.sharding == "fsdp2":
        local = sum(math.ceil(s[0] / p.dp) * math.prod(s[1:]) for s in shapes)
        state = 16 * local + 4 * len(shapes)
    elif p.sharding == "zero1":
        ranks = [(0, 0, r) for r in range(p.dp)]  # (elements, tensors, rank)
        for n in sorted(numel, reverse=True):
            low = min(ranks)
            ranks[low[2]] = (low[0] + n, low[1] + 1, low[2])
        state = 8 * sum(numel) + max(8 * e + 4 * k for e, k, _ in ranks)
    else:
        state = 16 * sum(numel) + 4 * len(numel)
    t = c.seq_len
    hd = c.dim // c.n_heads
    words = 6 * c.dim + 3 * c.n_heads * hd // p.tp + 2 * c.n_kv_heads * hd // p.tp + 4 * c.ffn_dim // p.tp
    blocks = c.n_layers // p.pp
    per_seq_words = t * (blocks * c.dim + words) if p.checkpointing else t * blocks * words
    if last:
        per_seq_words += 3 * t * (c.vocab // p.tp)
    held = min(p.pp, p.micro_batches) if first and p.pp > 1 else 1
    acts = 4 * per_seq_words * held * (batch // (p.dp * p.micro_batches))
    if p.sharding == "fsdp2":
        root = (c.vocab // p.tp * c.dim if first else 0) + (c.dim + c.vocab // p.tp * c.dim if last else 0)
        return state + acts + 8 * (root + sum(math.prod(s) for s in block))
    return state + max(acts, 8 * max(numel))


def search(config, gpu, n_gpus, global_batch, *, headroom):
    room = (1 - headroom) * gpu_memory(gpu)
    tps = [t for t in _divisors(n_gpus) if t <= 8
           and not any(x % t for x in (config.n_heads, config.n_kv_heads, config.ffn_dim, config.vocab))]
    pps = [p for p in _divisors(config.n_layers) if p <= n_gpus]
    fitting = []
    for tp, pp in itertools.product(tps, pps):
        if n_gpus % (tp * pp) or global_batch % (n_gpus // (tp * pp)):
            continue
        dp = n_gpus // (tp * pp)
        shardings = ("ddp", "zero1", "fsdp2") if dp > 1 else ("ddp",)
        for m, sharding, ckpt in itertools.product(_divisors(global_batch // dp), shardings, (False, True)):
            p = Plan(dp, tp, pp, sharding, m, ckpt)
            stages = {(True, pp == 1), (pp == 1, True)}  # (first, last) of stage 0 and stage pp-1
            if all(_estimate(config, p, global_batch, f, l) <= room for f, l in stages):
                fitting.append((step_time(config, gpu, p, global_batch)["total"], p))
    if not fitting:
        return None
    _, p = min(fitting, key=lambda pair: pair[0])
    chosen = {"dp": p.dp, "tp": p.tp, "pp": p.pp, "sharding": p.sharding,
              "micro_batches": p.micro_batches, "checkpointing": p.checkpointing}
    return {k: v for k, v in chosen.items() if k == "dp" or DEFAULTS[k] != v}


plan = functools.partial(search, headroom=0.10)
answer = plan
