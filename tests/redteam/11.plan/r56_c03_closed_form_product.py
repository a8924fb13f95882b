# expect: pass closed-form counts of a rank's parameters from parameter_count, itertools.product over the degrees, state-only pruning, then min by step time
# hint:
import itertools
import math

from d2lgpu.llama import parameter_count
from d2lgpu.plan import Plan, gpu_memory, step_time
from d2lgpu.scale import formula_bytes


def _rank_counts(config, tp, pp):
    """Per-rank element counts: one block's matrices and gains, the vocabulary table, blocks."""
    d = config.dim
    table = config.vocab * d
    blocks_and_norm = parameter_count(config, embedding=False) - table  # L blocks + final norm
    per_block = (blocks_and_norm - d) // config.n_layers
    gains = 2 * d  # the two RMSNorms' weights stay whole under tensor parallelism
    matrices = (per_block - gains) // tp
    largest_block_matrix = max(
        config.ffn_dim // tp * d, d * d // tp, config.n_kv_heads * (d // config.n_heads) // tp * d
    )
    return matrices + gains, table // tp, config.n_layers // pp, largest_block_matrix


def _stage_bytes(config, p, global_batch, stage):
    block, table, blocks, largest_in_block = _rank_counts(config, p.tp, p.pp)
    first, last = stage == 0, stage == p.pp - 1
    d = config.dim
    tensors = 9 * blocks + first + 2 * last
    psi = blocks * block + table * first + (d + table) * last
    largest = table if (first or last) else largest_in_block
    f = formula_bytes(psi, p.sharding, p.dp)
    optimizer = f["optimizer"] + 4 * tensors
    if p.sharding == "zero1":
        optimizer = max(optimizer, 8 * largest + 4)
    state = f["params"] + f["grads"] + optimizer

    t = config.seq_len
    kv = config.n_kv_heads * (d // config.n_heads)
    one_block = 4 * t * (6 * d + (3 * d + 2 * kv + 4 * config.ffn_dim) // p.tp)
    seqs = global_batch // (p.dp * p.micro_batches)
    held = min(p.pp, p.micro_batches) if first and p.pp > 1 else 1
    if p.checkpointing:
        acts = seqs * (held * blocks * 4 * t * d + one_block)
    else:
        acts = seqs * held * blocks * one_block
    if last:
        acts += seqs * 3 * 4 * t * config.vocab // p.tp

    if p.sharding == "fsdp2":
        root = table * first + (d + table) * last
        return state + acts + 2 * 4 * (root + block)
    return state + max(acts, 2 * 4 * largest)


def plan(config, gpu, n_gpus, global_batch):
    """The fastest plan whose estimated peak leaves 10% of the GPU free, or None."""
    limit = 0.9 * gpu_memory(gpu)
    tps = [t for t in range(1, 9)
           if not (config.n_heads % t or config.n_kv_heads % t or config.ffn_dim % t or config.vocab % t)]  # fmt: skip
    pps = [p for p in range(1, config.n_layers + 1) if config.n_layers % p == 0]
    fitting = []
    for tp, pp, sharding, ckpt in itertools.product(tps, pps, ("ddp", "zero1", "fsdp2"), (False, True)):
        if n_gpus % (tp * pp):
            continue
        dp = n_gpus // (tp * pp)
        if global_batch % dp or (dp == 1 and sharding != "ddp"):
            continue
        # the state alone does not depend on the micro-batches: prune before trying them
        probe = Plan(dp, tp, pp, sharding, global_batch // dp, True)
        if max(_stage_bytes(config, probe, global_batch, s) for s in {0, pp - 1}) > limit:
            continue
        for m in range(1, global_batch // dp + 1):
            if (global_batch // dp) % m:
                continue
            p = Plan(dp, tp, pp, sharding, m, ckpt)
            if max(_stage_bytes(config, p, global_batch, s) for s in {0, pp - 1}) <= limit:
                fitting.append(p)
    if not fitting:
        return None
    return min(fitting, key=lambda p: step_time(config, gpu, p, global_batch)["total"])


answer = plan
