# expect: fail under a pipeline sizes only the first stage: the last stage's output layer and its logits are never counted
# hint: last stage|output|logit|vocab|head|stage|fit|free|10 ?%|headroom|peak
from d2lgpu.plan import Plan, gpu_memory, step_time
from d2lgpu.scale import formula_bytes


def _divisors(n):
    return [k for k in range(1, n + 1) if n % k == 0]


def _peak(config, n_gpus, global_batch, dp, tp, pp, sharding, m, ckpt):
    d, f, vocab, t = config.dim, config.ffn_dim, config.vocab, config.seq_len
    kv_dim = config.n_kv_heads * (d // config.n_heads)
    block_matrices = 2 * d * d + 2 * d * kv_dim + 3 * d * f
    blocks = config.n_layers // pp
    b = global_batch // dp // m  # sequences per micro-batch
    in_flight = min(pp, m) if pp > 1 else 1
    q, kv, ff = d / tp, kv_dim / tp, f / tp
    per_block = 4 * t * (6 * d + 3 * q + 2 * kv + 4 * ff) * b
    head = 3 * 4 * t * vocab / tp * b
    worst = 0
    for stage in (0,):  # the first stage holds the most micro-batches
        first, last = True, pp == 1
        psi = blocks * (block_matrices / tp + 2 * d)
        psi += first * vocab * d / tp + last * (vocab * d / tp + d)
        state = formula_bytes(int(psi), sharding, dp)
        largest = max(d * f / tp, (first or last) * vocab * d / tp)
        if sharding == "zero1":
            state["optimizer"] = max(state["optimizer"], 8 * largest)
        total_state = sum(state.values())
        held = in_flight if first else 1
        if ckpt:
            acts = held * blocks * 4 * t * d * b + per_block
        else:
            acts = held * blocks * per_block
        acts += last * head
        local_largest = largest / dp if sharding == "fsdp2" else largest
        adam = 2 * 4 * local_largest
        if sharding == "fsdp2":
            root = (first + last) * vocab * d / tp
            acts += 2 * 4 * (root + block_matrices / tp)
        worst = max(worst, total_state + max(acts, adam))
    return worst


def plan(config, gpu, n_gpus, global_batch):
    """The fastest plan whose estimated peak leaves 10% of the GPU free, or None."""
    budget = 0.9 * gpu_memory(gpu)
    best, best_time = None, float("inf")
    for tp in _divisors(min(8, n_gpus)):
        if any(x % tp for x in (config.n_heads, config.n_kv_heads, config.ffn_dim, config.vocab)):
            continue
        for pp in _divisors(config.n_layers):
            if n_gpus % (tp * pp):
                continue
            dp = n_gpus // (tp * pp)
            if global_batch % dp:
                continue
            for sharding in ("ddp", "zero1", "fsdp2"):
                for m in _divisors(global_batch // dp):
                    for ckpt in (False, True):
                        if _peak(config, n_gpus, global_batch, dp, tp, pp, sharding, m, ckpt) > budget:
                            continue
                        candidate = Plan(dp, tp, pp, sharding, m, ckpt)
                        seconds = step_time(config, gpu, candidate, global_batch)["total"]
                        if seconds < best_time:
                            best, best_time = candidate, seconds
    if best is None:
        return None
    return {"dp": best.dp, "tp": best.tp, "pp": best.pp, "sharding": best.sharding,
            "micro_batches": best.micro_batches, "checkpointing": best.checkpointing}


answer = plan
