# expect: fail ZeRO-1's optimizer state sized as an even share (written as itertools.product over the plan space, a generator of candidates and min(), returning a d2lgpu.plan.Plan): right until round 48's prompt said ZeRO-1 deals whole tensors; round 51's run of the 1B model on 8 T4s shows it
# hint: ZeRO-1.*whole tensors|even share
import itertools

from d2lgpu.plan import Plan, gpu_memory, step_time
from d2lgpu.scale import formula_bytes

SHARDINGS = ("ddp", "zero1", "fsdp2")


def rank_bytes(c, p, global_batch):
    """My estimate of the peak on the first and the last pipeline stage; the larger."""
    t, d, tp, pp, dp = c.seq_len, c.dim, p.tp, p.pp, p.dp
    hd = d // c.n_heads
    kvd = c.n_kv_heads * hd
    blocks = c.n_layers // pp
    seqs = global_batch // dp // p.micro_batches
    mats = [d * d // tp, kvd * d // tp, kvd * d // tp, d * d // tp] + [c.ffn_dim * d // tp] * 3
    block = sum(mats) + 2 * d
    vocab = c.vocab * d // tp
    act_block = 4 * t * (6 * d + 3 * d / tp + 2 * kvd / tp + 4 * c.ffn_dim / tp) * seqs
    out = []
    for first, last in {(True, pp == 1), (pp == 1, True)}:
        psi = blocks * block + (vocab if first else 0) + ((vocab + d) if last else 0)
        state = sum(formula_bytes(psi, p.sharding, dp).values())
        held = min(pp, p.micro_batches) if (first and pp > 1) else 1
        if p.checkpointing:
            act = held * blocks * 4 * t * d * seqs + act_block
        else:
            act = held * blocks * act_block
        if last:
            act += 12 * t * c.vocab / tp * seqs
        big = max(mats + ([vocab] if first or last else []))
        if p.sharding == "fsdp2":
            act += 8 * (2 * vocab + block)
            big = -(-big // dp)
        out.append(state + max(8 * big, act))
    return max(out)


def candidates(c, n_gpus, global_batch):
    for tp, pp in itertools.product(range(1, 9), range(1, c.n_layers + 1)):
        if n_gpus % (tp * pp) or c.n_layers % pp:
            continue
        if any(v % tp for v in (c.n_heads, c.n_kv_heads, c.ffn_dim, c.vocab)):
            continue
        dp = n_gpus // (tp * pp)
        if global_batch % dp:
            continue
        per_rank = global_batch // dp
        ms = [m for m in range(1, per_rank + 1) if per_rank % m == 0]
        for m, sharding, ckpt in itertools.product(ms, SHARDINGS, (False, True)):
            yield Plan(dp, tp, pp, sharding, m, ckpt)


def plan(config, gpu, n_gpus, global_batch):
    limit = 0.9 * gpu_memory(gpu)
    fitting = (p for p in candidates(config, n_gpus, global_batch)
               if rank_bytes(config, p, global_batch) <= limit)
    return min(fitting, key=lambda p: step_time(config, gpu, p, global_batch)["total"], default=None)


answer = plan
