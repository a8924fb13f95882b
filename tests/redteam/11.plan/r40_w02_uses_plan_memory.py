# expect: fail sizes each plan with d2lgpu.plan.memory (the checker's answer, forbidden) instead of its own estimate
# hint: (memory|own estimate|checker.s answer)
# name: plan
import math

from d2lgpu.plan import Plan, gpu_memory, memory, step_time
from d2lgpu.scale import formula_bytes


def _allowed_tp(c):
    return [t for t in range(1, 9)
            if all(s % t == 0 for s in (c.n_heads, c.n_kv_heads, c.ffn_dim, c.vocab))]


def _stage_tensors(c, tp, stage, pp):
    """Element counts of one rank's tensors: its blocks, embedding (first), norm and output (last)."""
    d = c.dim
    kv = c.n_kv_heads * (d // c.n_heads)
    block = [d * d // tp, d * kv // tp, d * kv // tp, d * d // tp,
             d * c.ffn_dim // tp, d * c.ffn_dim // tp, d * c.ffn_dim // tp, d, d]
    sizes = block * (c.n_layers // pp)
    root = 0
    if stage == 0:
        sizes.append(c.vocab * d // tp)
        root += c.vocab * d // tp
    if stage == pp - 1:
        sizes += [d, c.vocab * d // tp]
        root += c.vocab * d // tp + d
    return sizes, sum(block), root


def _zero1_largest_rank(sizes, n):
    held = [0] * n
    for size in sorted(sizes, reverse=True):
        held[held.index(min(held))] += size
    return 8 * max(held)


def _peak(c, p, global_batch, stage):
    sizes, block_params, root = _stage_tensors(c, p.tp, stage, p.pp)
    psi = sum(sizes)
    state = sum(formula_bytes(psi, p.sharding, p.dp).values())
    if p.sharding == "zero1":
        state = 8 * psi + _zero1_largest_rank(sizes, p.dp)
    t, d = c.seq_len, c.dim
    q, kv, f = d // p.tp, c.n_kv_heads * (d // c.n_heads) // p.tp, c.ffn_dim // p.tp
    full = 4 * t * (6 * d + 3 * q + 2 * kv + 4 * f)
    per_block = 4 * t * d if p.checkpointing else full
    b = global_batch // (p.dp * p.micro_batches)
    blocks = c.n_layers // p.pp
    in_flight = min(p.pp, p.micro_batches) if (stage == 0 and p.pp > 1) else 1
    acts = in_flight * b * blocks * per_block
    if p.checkpointing:
        acts += b * full
    if stage == p.pp - 1:
        acts += b * 3 * 4 * t * c.vocab // p.tp
    largest = max(sizes)
    if p.sharding == "fsdp2":
        largest = math.ceil(largest / p.dp)
    adam = 2 * 4 * largest
    if p.sharding == "fsdp2":
        gathered = 2 * 4 * (root + block_params)
        return state + max(acts + gathered, adam)
    return state + max(acts, adam)


def _plans(c, n_gpus, global_batch):
    for tp in _allowed_tp(c):
        for pp in [k for k in range(1, c.n_layers + 1) if c.n_layers % k == 0]:
            if n_gpus % (tp * pp):
                continue
            dp = n_gpus // (tp * pp)
            if global_batch % dp:
                continue
            per = global_batch // dp
            for m in [k for k in range(1, per + 1) if per % k == 0]:
                for sharding in (("ddp", "zero1", "fsdp2") if dp > 1 else ("ddp",)):
                    for ckpt in (False, True):
                        yield Plan(dp, tp, pp, sharding, m, ckpt)


def plan(config, gpu, n_gpus, global_batch):
    """The fastest plan whose estimated peak leaves 10% of the GPU free, or None."""
    limit = 0.9 * gpu_memory(gpu)
    best = None
    for p in _plans(config, n_gpus, global_batch):
        peak = memory(config, p, global_batch)["peak"]  # the library sizes it
        if peak > limit:
            continue
        seconds = step_time(config, gpu, p, global_batch)["total"]
        if best is None or seconds < best[0]:
            best = (seconds, p)
    if best is None:
        return None
    p = best[1]
    return {"dp": p.dp, "tp": p.tp, "pp": p.pp, "sharding": p.sharding,
            "micro_batches": p.micro_batches, "checkpointing": p.checkpointing}
