# expect: fail micro_batches taken from the divisors of global_batch, not of global_batch / dp: invalid plans
# hint: micro.?batch|divid|split|global.?batch|invalid
import math

from d2lgpu.plan import Plan, gpu_memory, step_time
from d2lgpu.scale import formula_bytes

HEADROOM = 0.9  # 10% of the GPU's memory stays free
MARGIN = 1.01  # my estimate against the tracker


def divisors(n):
    return [k for k in range(1, n + 1) if n % k == 0]


def estimate(config, p, global_batch):
    """Peak bytes on the rank that holds the most: the first pipeline stage or the last."""
    d, L, V, f = config.dim, config.n_layers, config.vocab, config.ffn_dim
    hd = d // config.n_heads
    tp, pp, dp, m = p["tp"], p["pp"], p["dp"], p["micro_batches"]
    q, kv, ff = d // tp, config.n_kv_heads * hd // tp, f // tp
    block = 2 * d + 2 * d * q + 2 * kv * d + 3 * d * ff  # one block's parameters on this rank
    blocks = L // pp
    t = config.seq_len
    seqs = global_batch // (dp * m)  # sequences per micro-batch on one data-parallel rank
    in_flight = min(pp, m)  # 1F1B's first stage
    per_block = 4 * t * (6 * d + 3 * q + 2 * kv + 4 * ff)  # per sequence
    head = 3 * 4 * t * V // tp  # logits, log-softmax, gradient
    largest = max(V * d // tp, ff * d)
    worst = 0
    for stage in {0, pp - 1}:
        psi, root = blocks * block, 0
        if stage == 0:
            psi += V * d // tp
            root += V * d // tp
        if stage == pp - 1:
            psi += d + V * d // tp
            root += V * d // tp
        state = sum(formula_bytes(psi, p["sharding"], dp).values())
        if p["sharding"] == "zero1":  # ZeRO-1 deals whole tensors: the largest may land here
            state += 8 * largest
        held = in_flight if stage == 0 else 1
        if p["checkpointing"]:
            acts = held * seqs * 4 * t * d * blocks + seqs * per_block
        else:
            acts = held * seqs * per_block * blocks
        if stage == 0:
            acts += held * seqs * 4 * t * d  # the embedding's output
        if stage == pp - 1:
            acts += seqs * (head + 3 * 4 * t * d)  # the head and the final norm
        if p["sharding"] == "fsdp2":  # root and one block gathered, each beside its buffer
            acts += 2 * 4 * (root + block)
        transient = 2 * 4 * largest  # Adam's two temporaries, after backward
        worst = max(worst, state + max(transient, acts))
    return worst * MARGIN


def candidates(config, n_gpus, global_batch):
    for tp in divisors(min(8, n_gpus)):
        if any(x % tp for x in (config.n_heads, config.n_kv_heads, config.ffn_dim, config.vocab)):
            continue
        for pp in divisors(config.n_layers):
            if n_gpus % (tp * pp):
                continue
            dp = n_gpus // (tp * pp)
            if global_batch % dp:
                continue
            for m in divisors(global_batch):
                for sharding in ("ddp", "zero1", "fsdp2"):
                    for checkpointing in (False, True):
                        yield {"dp": dp, "tp": tp, "pp": pp, "sharding": sharding,
                               "micro_batches": m, "checkpointing": checkpointing}


def plan(config, gpu, n_gpus, global_batch):
    budget = HEADROOM * gpu_memory(gpu)
    best, best_time = None, math.inf
    for p in candidates(config, n_gpus, global_batch):
        if estimate(config, p, global_batch) > budget:
            continue
        seconds = step_time(config, gpu, Plan(**p), global_batch)["total"]
        if seconds < best_time:
            best, best_time = p, seconds
    return best


answer = plan
