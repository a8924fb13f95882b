# expect: fail ZeRO-1's optimizer state sized as an even share (written as exhaustive search over every valid plan with the prompt's memory estimate, fastest by step_time, returned as a dict): right until round 48's prompt said ZeRO-1 deals whole tensors; round 51's run of the 1B model on 8 T4s shows it
# hint: ZeRO-1.*whole tensors|even share
from d2lgpu.plan import Plan, gpu_memory, step_time
from d2lgpu.scale import formula_bytes


def _divisors(n):
    return [k for k in range(1, n + 1) if n % k == 0]


def _block_params(c, tp):
    hd = c.dim // c.n_heads
    q = c.n_heads * hd * c.dim // tp
    kv = c.n_kv_heads * hd * c.dim // tp
    mlp = c.ffn_dim * c.dim // tp
    return 2 * c.dim + 2 * q + 2 * kv + 3 * mlp, max(q, kv, mlp)


def _peak(c, tp, pp, dp, sharding, m, ckpt, global_batch):
    t, d = c.seq_len, c.dim
    hd = d // c.n_heads
    q, kv, f = d / tp, c.n_kv_heads * hd / tp, c.ffn_dim / tp
    blocks = c.n_layers // pp
    b = global_batch // dp // m  # sequences per micro-batch
    block_params, block_largest = _block_params(c, tp)
    vocab_params = c.vocab * d // tp
    per_block_act = 4 * t * (6 * d + 3 * q + 2 * kv + 4 * f) * b
    head_act = 3 * 4 * t * c.vocab / tp * b
    worst = 0
    stages = {"first": 0, "last": pp - 1}
    for where, stage in stages.items():
        psi = blocks * block_params
        largest = block_largest
        n_tensors = 9 * blocks
        if stage == 0:
            psi += vocab_params
            largest = max(largest, vocab_params)
            n_tensors += 1
        if stage == pp - 1:
            psi += d + vocab_params
            largest = max(largest, vocab_params)
            n_tensors += 2
        state = sum(formula_bytes(psi, sharding, dp).values()) + 4 * n_tensors
        in_flight = min(pp, m) if (pp > 1 and stage == 0) else 1
        if ckpt:
            acts = (blocks * 4 * t * d * b) * in_flight + per_block_act
        else:
            acts = blocks * per_block_act * in_flight
        if stage == pp - 1:
            acts += head_act
        if sharding == "fsdp2":
            acts += 2 * 4 * (2 * vocab_params + block_params)
            largest = -(-largest // dp)
        adam = 2 * 4 * largest
        worst = max(worst, state + max(adam, acts))
    return worst


def plan(config, gpu, n_gpus, global_batch):
    c = config
    budget = 0.9 * gpu_memory(gpu)
    best, best_time = None, float("inf")
    for tp in _divisors(min(n_gpus, 8)):
        if any(x % tp for x in (c.n_heads, c.n_kv_heads, c.ffn_dim, c.vocab)):
            continue
        for pp in _divisors(n_gpus // tp):
            if c.n_layers % pp or n_gpus % (tp * pp):
                continue
            dp = n_gpus // (tp * pp)
            if global_batch % dp:
                continue
            for m in _divisors(global_batch // dp):
                for sharding in ("ddp", "zero1", "fsdp2"):
                    for ckpt in (False, True):
                        if _peak(c, tp, pp, dp, sharding, m, ckpt, global_batch) > budget:
                            continue
                        p = Plan(dp, tp, pp, sharding, m, ckpt)
                        seconds = step_time(c, gpu, p, global_batch)["total"]
                        if seconds < best_time:
                            best, best_time = p, seconds
    if best is None:
        return None
    return {
        "dp": best.dp, "tp": best.tp, "pp": best.pp, "sharding": best.sharding,
        "micro_batches": best.micro_batches, "checkpointing": best.checkpointing,
    }


answer = plan
