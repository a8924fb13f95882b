# expect: pass
# hint:
# Right: functools.partial of a planner with a headroom argument, returning a
# d2lgpu.plan.Plan (the prompt accepts one); FSDP2 shards counted padded, ceil(rows / dp).
import functools
import math

from d2lgpu.plan import Plan, gpu_memory, step_time


def _shapes(config, tp, stage, pp):
    """(rows, cols) of the tensors one rank holds, as tensor parallelism cuts them."""
    d, f, v = config.dim, config.ffn_dim, config.vocab
    kv = config.n_kv_heads * (d // config.n_heads)
    block = [(d, 1), (d // tp, d), (kv // tp, d), (kv // tp, d), (d, d // tp),  # norm, q, k, v, o
             (d, 1), (f // tp, d), (f // tp, d), (d, f // tp)]  # norm, gate, up, down  # fmt: skip
    shapes = [(v // tp, d)] if stage == 0 else []
    shapes += block * (config.n_layers // pp)
    if stage == pp - 1:
        shapes += [(d, 1), (v // tp, d)]
    return shapes, block


def _state(shapes, sharding, dp):
    """Parameters, gradients and Adam's state (moments and step counters), bytes."""
    n = sum(r * c for r, c in shapes)
    counters = 4 * len(shapes)
    if sharding == "fsdp2":
        shard = sum(math.ceil(r / dp) * c for r, c in shapes)
        return 16 * shard + counters
    if sharding == "zero1":
        largest = max(r * c for r, c in shapes)
        return 8 * n + max(8 * n / dp, 8 * largest) + counters
    return 16 * n + counters


def _activations(config, p, global_batch, stage):
    t, d = config.seq_len, config.dim
    q, f = d / p.tp, config.ffn_dim / p.tp
    kv = config.n_kv_heads * (d // config.n_heads) / p.tp
    block = 4 * t * (6 * d + 3 * q + 2 * kv + 4 * f)
    seqs = global_batch // (p.dp * p.micro_batches)
    in_flight = min(p.pp, p.micro_batches) if stage == 0 and p.pp > 1 else 1
    layers = config.n_layers // p.pp
    if p.checkpointing:
        total = in_flight * seqs * layers * 4 * t * d + seqs * block
    else:
        total = in_flight * seqs * layers * block
    if stage == p.pp - 1:
        total += seqs * 3 * 4 * t * config.vocab / p.tp
    return total


def _peak(config, p, global_batch, stage):
    shapes, block = _shapes(config, p.tp, stage, p.pp)
    largest = max(r * c for r, c in shapes)
    acts = _activations(config, p, global_batch, stage)
    state = _state(shapes, p.sharding, p.dp)
    if p.sharding == "fsdp2":
        adam = 2 * 4 * math.ceil(largest / p.dp)
        roots = (stage == 0) + (stage == p.pp - 1)  # the embedding, the output layer
        head = (config.vocab // p.tp) * config.dim
        gathered = 2 * 4 * (roots * head + sum(r * c for r, c in block))
        return state + max(adam, acts + gathered)
    return state + max(2 * 4 * largest, acts)


def _plan(config, gpu, n_gpus, global_batch, *, headroom):
    limit = (1 - headroom) * gpu_memory(gpu)
    found = []
    for tp in range(1, 9):
        if any(x % tp for x in (config.n_heads, config.n_kv_heads, config.ffn_dim, config.vocab)):
            continue
        for pp in range(1, config.n_layers + 1):
            if config.n_layers % pp or n_gpus % (tp * pp):
                continue
            dp = n_gpus // (tp * pp)
            if global_batch % dp:
                continue
            for m in range(1, global_batch // dp + 1):
                if (global_batch // dp) % m:
                    continue
                for sharding in ("ddp", "zero1", "fsdp2"):
                    for ckpt in (False, True):
                        p = Plan(dp=dp, tp=tp, pp=pp, sharding=sharding, micro_batches=m,
                                 checkpointing=ckpt)  # fmt: skip
                        if max(_peak(config, p, global_batch, s) for s in {0, pp - 1}) <= limit:
                            found.append((step_time(config, gpu, p, global_batch)["total"], p))
    if not found:
        return None
    return min(found, key=lambda pair: pair[0])[1]


answer = functools.partial(_plan, headroom=0.10)
