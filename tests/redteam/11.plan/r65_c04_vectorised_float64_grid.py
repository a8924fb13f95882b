# expect: pass
# hint:
# Right: every candidate plan sized at once in float64 tensors (exact for these byte
# counts, unlike int32), masked to the ones that fit, and the fastest picked with argmin.
import itertools
import math

import torch

from d2lgpu.plan import Plan, gpu_memory, step_time


def _grid(config, n_gpus, global_batch):
    tps = [t for t in range(1, 9)
           if all(x % t == 0 for x in (config.n_heads, config.n_kv_heads, config.ffn_dim, config.vocab))]  # fmt: skip
    pps = [p for p in range(1, config.n_layers + 1) if config.n_layers % p == 0]
    out = []
    for tp, pp in itertools.product(tps, pps):
        if n_gpus % (tp * pp) or global_batch % (n_gpus // (tp * pp)):
            continue
        dp = n_gpus // (tp * pp)
        ms = [m for m in range(1, global_batch // dp + 1) if (global_batch // dp) % m == 0]
        for m, sharding, ckpt in itertools.product(ms, ("ddp", "zero1", "fsdp2"), (False, True)):
            out.append(Plan(dp, tp, pp, sharding, m, ckpt))
    return out


def _peaks(config, plans, global_batch):
    f64 = dict(dtype=torch.float64)
    col = lambda key: torch.tensor([float(getattr(p, key)) for p in plans], **f64)  # noqa: E731
    dp, tp, pp, m = col("dp"), col("tp"), col("pp"), col("micro_batches")
    ckpt = torch.tensor([p.checkpointing for p in plans])
    kind = {s: torch.tensor([p.sharding == s for p in plans]) for s in ("ddp", "zero1", "fsdp2")}
    d, t, V, L = config.dim, config.seq_len, config.vocab, config.n_layers
    kvd = config.n_kv_heads * (d // config.n_heads)
    matrices = 2 * d * d + 2 * d * kvd + 3 * d * config.ffn_dim  # per block, split by tp
    norms = 2 * d  # per block, whole on every tp rank
    block = matrices / tp + norms
    head = V * d / tp  # the embedding, or the output layer
    layers = L / pp
    seqs = torch.floor(global_batch / (dp * m))
    full = 4 * t * (6 * d + (3 * d + 2 * kvd + 4 * config.ffn_dim) / tp)
    per_block = torch.where(ckpt, torch.full_like(full, 4.0 * t * d), full)
    worst = torch.zeros(len(plans), **f64)
    single = pp == 1  # one stage: it is both the first and the last
    largest = max(V * d, d * config.ffn_dim, d * d) / tp  # every rank sized holds a root
    for first, last in ((torch.ones_like(single), single), (single, torch.ones_like(single))):
        n_tensors = 9 * layers + first * 1 + last * 2
        psi = layers * block + first * head + last * (head + d)
        state = torch.where(kind["fsdp2"], 16 * psi / dp,
                            torch.where(kind["zero1"], 8 * psi + torch.maximum(8 * psi / dp, 8 * largest),
                                        16 * psi))  # fmt: skip
        state = state + 4 * n_tensors
        held = torch.where(first & ~last, torch.minimum(pp, m), torch.ones_like(pp))
        acts = held * seqs * layers * per_block + torch.where(ckpt, seqs * full, 0.0)
        acts = acts + last * seqs * 12 * t * V / tp
        temps = 8 * torch.where(kind["fsdp2"], torch.ceil(largest / dp), largest)
        gathered = 8 * ((first * 1.0 + last * 1.0) * head + block)
        over = torch.where(kind["fsdp2"], torch.maximum(temps, acts + gathered),
                           torch.maximum(temps, acts))  # fmt: skip
        worst = torch.maximum(worst, state + over)
    return worst


def answer(config, gpu, n_gpus, global_batch):
    plans = _grid(config, n_gpus, global_batch)
    if not plans:
        return None
    ok = _peaks(config, plans, global_batch) <= 0.9 * gpu_memory(gpu)
    if not bool(ok.any()):
        return None
    seconds = torch.tensor([step_time(config, gpu, p, global_batch)["total"] if fit else math.inf
                            for p, fit in zip(plans, ok.tolist())], dtype=torch.float64)  # fmt: skip
    best = plans[int(torch.argmin(seconds))]
    return {"dp": best.dp, "tp": best.tp, "pp": best.pp, "sharding": best.sharding,
            "micro_batches": best.micro_batches, "checkpointing": best.checkpointing}  # fmt: skip
