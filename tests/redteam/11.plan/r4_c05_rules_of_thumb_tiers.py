# expect: pass
# hint: 
from d2lgpu.plan import Plan, gpu_memory, step_time
from d2lgpu.scale import formula_bytes


def _peak(c, p, batch):
    """Peak on the first and the last stage, the prompt's estimate."""
    t, d = c.seq_len, c.dim
    q, f = d // p.tp, c.ffn_dim // p.tp
    kv = c.n_kv_heads * (d // c.n_heads) // p.tp
    block = [d * q, d * kv, d * kv, q * d, d * f, d * f, f * d, d, d]
    table = c.vocab // p.tp * d
    blocks = c.n_layers // p.pp
    seqs = batch // (p.dp * p.micro_batches)
    full = 4 * t * (6 * d + 3 * q + 2 * kv + 4 * f)
    peaks = []
    for stage in sorted({0, p.pp - 1}):
        tensors = block * blocks + ([table] if stage == 0 else []) \
            + ([table, d] if stage == p.pp - 1 else [])
        state = sum(formula_bytes(sum(tensors), p.sharding, p.dp).values())
        held = min(p.pp, p.micro_batches) if stage == 0 and p.pp > 1 else 1
        if p.checkpointing:
            acts = seqs * (held * blocks * 4 * t * d + full)
        else:
            acts = seqs * held * blocks * full
        if stage == p.pp - 1:
            acts += seqs * 12 * t * c.vocab // p.tp
        if p.sharding == "fsdp2":
            adam = 8 * -(-max(tensors) // p.dp)
            gathered = 8 * (sum(block) + table * ((stage == 0) + (stage == p.pp - 1)))
            peaks.append(state + max(adam, acts + gathered))
        else:
            peaks.append(state + max(8 * max(tensors), acts))
    return max(peaks)


def plan(config, gpu, n_gpus, global_batch):
    """11.7's order: data parallelism alone, then tensor parallelism inside the node, then a
    pipeline; within the first tier where something fits, the fastest plan."""
    budget = 0.9 * gpu_memory(gpu)
    tps = [tp for tp in (2, 4, 8) if n_gpus % tp == 0 and all(
        x % tp == 0 for x in (config.n_heads, config.n_kv_heads, config.ffn_dim, config.vocab))]
    pps = [pp for pp in range(2, n_gpus + 1) if n_gpus % pp == 0 and config.n_layers % pp == 0]
    tiers = [
        [(1, 1)],
        [(tp, 1) for tp in tps],
        [(tp, pp) for tp in [1] + tps for pp in pps if n_gpus % (tp * pp) == 0],
    ]
    for tier in tiers:
        fitting = []
        for tp, pp in tier:
            dp = n_gpus // (tp * pp)
            if global_batch % dp:
                continue
            each = global_batch // dp
            for m in (k for k in range(1, each + 1) if each % k == 0):
                for sharding in ("ddp", "zero1", "fsdp2"):
                    for ckpt in (False, True):
                        p = Plan(dp, tp, pp, sharding, m, ckpt)
                        if _peak(config, p, global_batch) <= budget:
                            fitting.append(p)
        if fitting:
            best = min(fitting, key=lambda p: step_time(config, gpu, p, global_batch)["total"])
            print(f"planned {best} for {n_gpus} x {gpu}")
            return {"dp": best.dp, "tp": best.tp, "pp": best.pp, "sharding": best.sharding,
                    "micro_batches": best.micro_batches, "checkpointing": best.checkpointing}
    return None


answer = plan
