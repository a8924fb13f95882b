# expect: pass a different search: every valid plan timed first and sorted by step_time, then sized in that order until one fits; returns a d2lgpu.plan.Plan instead of a dict
# hint:
import math
from itertools import product

from d2lgpu.plan import Plan, gpu_memory, step_time

GB_FLOAT = 4  # bytes per float32


def valid_plans(config, n_gpus, global_batch):
    """Every (dp, tp, pp, sharding, micro_batches, checkpointing) the table allows."""
    splits = (config.n_heads, config.n_kv_heads, config.ffn_dim, config.vocab)
    for tp, pp in product(range(1, 9), range(1, config.n_layers + 1)):
        if any(s % tp for s in splits) or config.n_layers % pp or n_gpus % (tp * pp):
            continue
        dp = n_gpus // (tp * pp)
        if global_batch % dp:
            continue
        per_rank = global_batch // dp
        for m in filter(lambda k: per_rank % k == 0, range(1, per_rank + 1)):
            for sharding in ("ddp", "zero1", "fsdp2")[: 3 if dp > 1 else 1]:
                for ckpt in (False, True):
                    yield Plan(dp, tp, pp, sharding, m, ckpt)


def rank_bytes(config, p, global_batch):
    """The larger of the first and the last stage's estimated peaks."""
    d, t, hd = config.dim, config.seq_len, config.dim // config.n_heads
    q, kv, f, v = (config.n_heads * hd // p.tp, config.n_kv_heads * hd // p.tp,
                   config.ffn_dim // p.tp, config.vocab // p.tp)
    block = [d, d, q * d, kv * d, kv * d, d * q, f * d, f * d, d * f]  # elements per tensor
    block_rows = [d, d, q, kv, kv, d, f, f, d]
    blocks = config.n_layers // p.pp
    micro = global_batch // (p.dp * p.micro_batches)
    peaks = []
    for stage in {0, p.pp - 1}:
        first, last = stage == 0, stage == p.pp - 1
        numel = [v * d] * first + block * blocks + [d, v * d] * last
        rows = [v] * first + block_rows * blocks + [d, v] * last
        if p.sharding == "fsdp2":
            local = sum(math.ceil(r / p.dp) * (n // r) for n, r in zip(numel, rows))
            state = GB_FLOAT * 4 * local + 4 * len(numel)
        elif p.sharding == "zero1":
            owned = [0] * p.dp
            tensors = [0] * p.dp
            for n in sorted(numel, reverse=True):
                r = owned.index(min(owned))
                owned[r], tensors[r] = owned[r] + n, tensors[r] + 1
            state = GB_FLOAT * 2 * sum(numel) + max(8 * o + 4 * k for o, k in zip(owned, tensors))
        else:
            state = GB_FLOAT * 4 * sum(numel) + 4 * len(numel)
        full = GB_FLOAT * t * (6 * d + 3 * q + 2 * kv + 4 * f)
        seq = blocks * GB_FLOAT * t * d + full if p.checkpointing else blocks * full
        seq += 3 * GB_FLOAT * t * v if last else 0
        in_flight = min(p.pp, p.micro_batches) if first and p.pp > 1 else 1
        acts = in_flight * micro * seq
        if p.sharding == "fsdp2":
            root = v * d * first + (d + v * d) * last
            peaks.append(state + acts + 2 * GB_FLOAT * (root + sum(block)))
        else:
            peaks.append(state + max(acts, 2 * GB_FLOAT * max(numel)))
    return max(peaks)


def plan(config, gpu, n_gpus, global_batch):
    """Fastest first: the first plan in order of step time whose estimate leaves 10% free."""
    timed = sorted(
        ((step_time(config, gpu, p, global_batch)["total"], i, p)
         for i, p in enumerate(valid_plans(config, n_gpus, global_batch))),
        key=lambda x: (x[0], x[1]),
    )
    limit = 0.9 * gpu_memory(gpu)
    for _, _, p in timed:
        if rank_bytes(config, p, global_batch) <= limit:
            return p
    return None


answer = plan
