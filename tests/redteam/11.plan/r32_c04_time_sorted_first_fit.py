# expect: pass times every valid plan first, sorts them by step time, and returns the first whose (conservative) estimate fits
# hint:
import math

from d2lgpu.plan import Plan, gpu_memory, step_time
from d2lgpu.scale import formula_bytes


def estimate(c, p, global_batch):
    # Conservative: every rank is charged the embedding, the output layer and its logits, and
    # the first stage's min(pp, m) micro-batches in flight.
    d, t, tp = c.dim, c.seq_len, p.tp
    hd = d // c.n_heads
    kv = c.n_kv_heads * hd
    blocks = c.n_layers // p.pp
    block_psi = 2 * d + (2 * d * d + 2 * kv * d + 3 * c.ffn_dim * d) // tp
    vocab_psi = c.vocab * d // tp
    psi = blocks * block_psi + 2 * vocab_psi + d
    state = sum(formula_bytes(psi, p.sharding, p.dp).values()) + 4 * (9 * blocks + 3)
    seqs = global_batch // p.dp // p.micro_batches
    full = 4 * t * (6 * d + 3 * d / tp + 2 * kv / tp + 4 * c.ffn_dim / tp) * seqs
    kept = 4 * t * d * seqs if p.checkpointing else full
    in_flight = min(p.pp, p.micro_batches)
    acts = in_flight * blocks * kept + (full if p.checkpointing else 0)
    acts += 3 * 4 * t * c.vocab / tp * seqs
    largest = max(vocab_psi, c.ffn_dim * d // tp)
    if p.sharding == "fsdp2":
        acts += 2 * 4 * (2 * vocab_psi + block_psi)
        largest = math.ceil(largest / p.dp)
    return state + max(2 * 4 * largest, acts)


def valid_plans(c, n_gpus, global_batch):
    out = []
    for tp in (1, 2, 4, 8, 3, 5, 6, 7):
        if any(x % tp for x in (c.n_heads, c.n_kv_heads, c.ffn_dim, c.vocab)):
            continue
        for pp in range(1, c.n_layers + 1):
            if c.n_layers % pp or n_gpus % (tp * pp):
                continue
            dp = n_gpus // (tp * pp)
            if global_batch % dp:
                continue
            for m in range(1, global_batch // dp + 1):
                if (global_batch // dp) % m:
                    continue
                for sharding in ("fsdp2", "zero1", "ddp"):
                    for ckpt in (True, False):
                        out.append(Plan(dp=dp, tp=tp, pp=pp, sharding=sharding,
                                        micro_batches=m, checkpointing=ckpt))
    return out


def plan(config, gpu, n_gpus, global_batch):
    timed = sorted(valid_plans(config, n_gpus, global_batch),
                   key=lambda p: step_time(config, gpu, p, global_batch)["total"])
    room = 0.9 * gpu_memory(gpu)
    for p in timed:
        if estimate(config, p, global_batch) <= room:
            return dict(dp=p.dp, tp=p.tp, pp=p.pp, sharding=p.sharding,
                        micro_batches=p.micro_batches, checkpointing=p.checkpointing)
    return None


answer = plan
