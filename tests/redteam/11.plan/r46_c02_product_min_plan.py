# expect: pass itertools.product over the search space, min() keyed on step_time, returns a d2lgpu.plan.Plan
# hint:
import itertools
import math

from d2lgpu.plan import Plan, gpu_memory, step_time

B = 4  # bytes per float32


def _layout(config, tp):
    d = config.dim
    hd = d // config.n_heads
    return dict(
        d=d,
        q=config.n_heads * hd // tp,
        kv=config.n_kv_heads * hd // tp,
        f=config.ffn_dim // tp,
        v=config.vocab // tp,
    )


def _rank_tensors(config, p, first, last):
    x = _layout(config, p.tp)
    d, q, kv, f, v = x["d"], x["q"], x["kv"], x["f"], x["v"]
    block = [(d, 1), (d, 1), (q, d), (kv, d), (kv, d), (d, q), (f, d), (f, d), (d, f)]
    tensors = block * (config.n_layers // p.pp)
    if first:
        tensors = [(v, d)] + tensors
    if last:
        tensors = tensors + [(d, 1), (v, d)]
    return tensors, block


def _zero1_heaviest(sizes, ranks):
    held = [0] * ranks
    state = [0] * ranks
    for n in sorted(sizes, reverse=True):
        r = min(range(ranks), key=held.__getitem__)
        held[r] += n
        state[r] += 2 * B * n + 4
    return max(state)


def _bytes_on(config, p, global_batch, first, last):
    x = _layout(config, p.tp)
    d, q, kv, f, v, t = x["d"], x["q"], x["kv"], x["f"], x["v"], config.seq_len
    tensors, block = _rank_tensors(config, p, first, last)
    sizes = [r * c for r, c in tensors]
    if p.sharding == "fsdp2":
        local = [-(-r // p.dp) * c for r, c in tensors]
        state = 4 * B * sum(local) + 4 * len(local)
        largest = max(local)
        gathered = 2 * B * (v * d * (first + last) + sum(r * c for r, c in block))
    else:
        opt = _zero1_heaviest(sizes, p.dp) if p.sharding == "zero1" else 2 * B * sum(sizes) + 4 * len(sizes)
        state = 2 * B * sum(sizes) + opt
        largest = max(sizes)
        gathered = 0
    seqs = global_batch // p.dp // p.micro_batches
    live = min(p.pp, p.micro_batches) if (p.pp > 1 and first) else 1
    full = B * t * (6 * d + 3 * q + 2 * kv + 4 * f)
    head = 3 * B * t * (v + d) * seqs if last else 0
    blocks = config.n_layers // p.pp
    if p.checkpointing:
        acts = blocks * B * t * d * seqs * live + max(head, 1.2 * full * seqs)
    else:
        acts = blocks * full * seqs * live + head
    return state + max(acts + gathered, 2 * B * largest)


def _estimate(config, p, global_batch):
    stages = {(True, p.pp == 1), (p.pp == 1, True)}
    return max(_bytes_on(config, p, global_batch, first, last) for first, last in stages)


def _allowed(config, n_gpus, global_batch):
    splits = (config.n_heads, config.n_kv_heads, config.ffn_dim, config.vocab)
    tps = [k for k in range(1, 9) if n_gpus % k == 0 and all(s % k == 0 for s in splits)]
    pps = [k for k in range(1, config.n_layers + 1) if config.n_layers % k == 0]
    for tp, pp, sharding, ckpt in itertools.product(tps, pps, ("ddp", "zero1", "fsdp2"), (False, True)):
        if n_gpus % (tp * pp):
            continue
        dp = n_gpus // (tp * pp)
        if global_batch % dp:
            continue
        per_rank = global_batch // dp
        for m in range(1, per_rank + 1):
            if per_rank % m == 0:
                yield Plan(dp, tp, pp, sharding, m, ckpt)


def plan(config, gpu, n_gpus, global_batch):
    """The fastest plan whose estimated peak leaves 10% of the GPU free, or None."""
    limit = 0.9 * gpu_memory(gpu)
    fitting = [p for p in _allowed(config, n_gpus, global_batch) if _estimate(config, p, global_batch) <= limit]
    if not fitting:
        return None
    return min(fitting, key=lambda p: step_time(config, gpu, p, global_batch)["total"])


answer = plan
