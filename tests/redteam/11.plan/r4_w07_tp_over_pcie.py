# expect: fail always takes the largest tensor-parallel degree, even on PCIe T4s where its all-reduces dominate
# hint: tensor.?parallel|tp\b|tp=|pcie|all.?reduce|slow|1\.5|fastest|step
from d2lgpu.plan import GPUS, Plan, gpu_memory, step_time
from d2lgpu.scale import formula_bytes

SHARDINGS = ("ddp", "zero1", "fsdp2")


def _divisors(n):
    return [k for k in range(1, n + 1) if n % k == 0]


def _shapes(config, tp):
    d, hd = config.dim, config.dim // config.n_heads
    kv = config.n_kv_heads * hd // tp
    q, f = d // tp, config.ffn_dim // tp
    block = {"wq": d * q, "wk": d * kv, "wv": d * kv, "wo": q * d,
             "w1": d * f, "w3": d * f, "w2": f * d, "n1": d, "n2": d}
    root = {"emb": config.vocab // tp * d, "out": d * config.vocab // tp, "norm": d}
    return block, root, q, kv, f


def _peak(config, p, global_batch):
    t, d = config.seq_len, config.dim
    block, root, q, kv, f = _shapes(config, p.tp)
    blocks = config.n_layers // p.pp
    per_block = sum(block.values())
    b = global_batch // p.dp // p.micro_batches  # sequences per micro-batch
    held = min(p.pp, p.micro_batches) if p.pp > 1 else 1
    worst = 0
    for stage in {0, p.pp - 1}:
        psi = blocks * per_block
        tensors = list(block.values())
        if stage == 0:
            psi += root["emb"]
            tensors.append(root["emb"])
        if stage == p.pp - 1:
            psi += root["out"] + root["norm"]
            tensors.append(root["out"])
        state = sum(formula_bytes(psi, p.sharding, p.dp).values())
        full = 4 * t * (6 * d + 3 * q + 2 * kv + 4 * f)  # one block, one sequence
        if p.checkpointing:
            acts = b * (held * blocks * 4 * t * d + full)
        else:
            acts = b * held * blocks * full
        if stage == p.pp - 1:
            acts += b * 3 * 4 * t * config.vocab // p.tp
        largest = max(tensors) * 4
        if p.sharding == "fsdp2":
            largest = -(-max(tensors) // p.dp) * 4
        adam = 2 * largest
        if p.sharding == "fsdp2":
            gathered = 2 * 4 * (per_block + (root["emb"] if stage == 0 else 0)
                                + (root["out"] if stage == p.pp - 1 else 0))
            extra = max(adam, acts + gathered)
        else:
            extra = max(adam, acts)
        worst = max(worst, state + extra)
    return worst


def plan(config, gpu, n_gpus, global_batch):
    """The fastest plan whose estimated peak leaves 10% of the GPU free, or None."""
    hd = config.dim // config.n_heads
    tps = [tp for tp in _divisors(min(8, n_gpus))
           if config.n_heads % tp == 0 and config.n_kv_heads % tp == 0
           and config.ffn_dim % tp == 0 and config.vocab % tp == 0 and n_gpus % tp == 0]
    best, best_time = None, float("inf")
    for tp in tps[-1:]:  # TP inside the node first (11.7)
        for pp in _divisors(n_gpus // tp):
            if config.n_layers % pp:
                continue
            dp = n_gpus // tp // pp
            if global_batch % dp:
                continue
            for m in _divisors(global_batch // dp):
                for sharding in SHARDINGS:
                    for ckpt in (False, True):
                        p = Plan(dp, tp, pp, sharding, m, ckpt)
                        if _peak(config, p, global_batch) > 0.9 * gpu_memory(gpu):
                            continue
                        s = step_time(config, gpu, p, global_batch)["total"]
                        if s < best_time:
                            best, best_time = p, s
    if best is None:
        return None
    return {"dp": best.dp, "tp": best.tp, "pp": best.pp, "sharding": best.sharding,
            "micro_batches": best.micro_batches, "checkpointing": best.checkpointing}


answer = plan
