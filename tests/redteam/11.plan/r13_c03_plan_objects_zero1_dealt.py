# expect: pass returns Plan objects, ZeRO-1 state dealt tensor by tensor, step counters counted, prints the choice
# hint: 
from d2lgpu.plan import Plan, gpu_memory, step_time
from d2lgpu.scale import formula_bytes


def tensors_of_rank(c, tp, pp, stage):
    d, f = c.dim, c.ffn_dim
    kv = c.n_kv_heads * (d // c.n_heads)
    one = [d, d * d // tp, d * kv // tp, d * kv // tp, d * d // tp, d, d * f // tp, d * f // tp, f * d // tp]
    out = ([c.vocab * d // tp] if stage == 0 else []) + one * (c.n_layers // pp)
    if stage == pp - 1:
        out += [d, c.vocab * d // tp]
    return out, one


def zero1_rank0_moments(sizes, dp):
    """ZeroRedundancyOptimizer's dealing: largest first, to the emptiest rank; the fullest rank's bytes."""
    held = [0] * dp
    for n in sorted(sizes, reverse=True):
        held[held.index(min(held))] += n
    return 8 * max(held)


def state_bytes(sizes, sharding, dp):
    base = formula_bytes(sum(sizes), sharding, dp)
    if sharding == "zero1":
        base["optimizer"] = zero1_rank0_moments(sizes, dp)
    base["counters"] = 4 * len(sizes)  # Adam's step, one per tensor
    return sum(base.values())


def activation_bytes(c, p, global_batch, stage):
    t, d = c.seq_len, c.dim
    q, kv, f = d / p.tp, c.n_kv_heads * (d // c.n_heads) / p.tp, c.ffn_dim / p.tp
    per_seq_block = 4 * t * (6 * d + 3 * q + 2 * kv + 4 * f)
    seqs = global_batch // (p.dp * p.micro_batches)
    blocks = c.n_layers // p.pp
    if p.checkpointing:
        body = blocks * 4 * t * d + per_seq_block
    else:
        body = blocks * per_seq_block
    in_flight = min(p.pp, p.micro_batches) if (p.pp > 1 and stage == 0) else 1
    head = 12 * t * c.vocab / p.tp if stage == p.pp - 1 else 0
    return seqs * (in_flight * body + head)


def peak(c, p, global_batch, stage):
    sizes, one = tensors_of_rank(c, p.tp, p.pp, stage)
    state = state_bytes(sizes, p.sharding, p.dp)
    acts = activation_bytes(c, p, global_batch, stage)
    if p.sharding == "fsdp2":
        gathered = 2 * 4 * (2 * c.vocab * c.dim // p.tp) + 2 * 4 * sum(one)
        return state + acts + gathered
    return state + max(acts, 8 * max(sizes))


def all_plans(c, n_gpus, global_batch):
    tps = [t for t in (1, 2, 3, 4, 5, 6, 7, 8)
           if not (c.n_heads % t or c.n_kv_heads % t or c.ffn_dim % t or c.vocab % t)]
    return [
        Plan(n_gpus // (tp * pp), tp, pp, sh, m, ck)
        for tp in tps
        for pp in range(1, c.n_layers + 1)
        if c.n_layers % pp == 0 and n_gpus % (tp * pp) == 0
        and global_batch % (n_gpus // (tp * pp)) == 0
        for m in range(1, global_batch // (n_gpus // (tp * pp)) + 1)
        if (global_batch // (n_gpus // (tp * pp))) % m == 0
        for sh in ("ddp", "zero1", "fsdp2")
        for ck in (False, True)
    ]


def plan(config, gpu, n_gpus, global_batch):
    budget = 0.9 * gpu_memory(gpu)
    ok = [p for p in all_plans(config, n_gpus, global_batch)
          if max(peak(config, p, global_batch, s) for s in {0, p.pp - 1}) <= budget]
    if not ok:
        print(f"{n_gpus} x {gpu}: nothing fits")
        return None
    best = min(ok, key=lambda p: (step_time(config, gpu, p, global_batch)["total"], p.pp, p.tp))
    print(f"{n_gpus} x {gpu}: {best}")
    return best


answer = plan
