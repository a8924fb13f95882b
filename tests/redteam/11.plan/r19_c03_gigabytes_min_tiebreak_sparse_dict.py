# expect: fail ZeRO-1's optimizer state sized as an even share (written as works in GB (every byte count / 1e9, the limit too), min() keyed on (step time, peak), returns only the non-default keys): right until round 48's prompt said ZeRO-1 deals whole tensors; round 51's run of the 1B model on 8 T4s shows it
# hint: ZeRO-1.*whole tensors|even share
import math

from d2lgpu.plan import Plan, gpu_memory, step_time
from d2lgpu.scale import formula_bytes

GB = 1e9
DEFAULTS = {"tp": 1, "pp": 1, "sharding": "ddp", "micro_batches": 1, "checkpointing": False}


def _stage_gb(c, p, global_batch, stage):
    """My estimate of the peak of a rank on pipeline stage `stage`, in GB."""
    d, t = c.dim, c.seq_len
    hd = d // c.n_heads
    q, kv, f = c.n_heads * hd / p.tp, c.n_kv_heads * hd / p.tp, c.ffn_dim / p.tp
    block = 2 * d + (2 * d * q + 2 * d * kv + 3 * d * f)
    vocab_slice = c.vocab / p.tp * d
    first, last = stage == 0, stage == p.pp - 1
    root = (vocab_slice if first else 0) + ((d + vocab_slice) if last else 0)
    n_params = int(round(c.n_layers // p.pp * block + root))
    state = sum(formula_bytes(n_params, p.sharding, p.dp).values()) / GB
    seqs = global_batch / (p.dp * p.micro_batches)
    saved = 4 * t * (6 * d + 3 * q + 2 * kv + 4 * f) / GB  # one block, one sequence
    blocks = c.n_layers // p.pp
    acts = seqs * ((blocks * 4 * t * d / GB + saved) if p.checkpointing else blocks * saved)
    if first and p.pp > 1:
        acts *= min(p.pp, p.micro_batches)
    if last:
        acts += seqs * 3 * 4 * t * c.vocab / p.tp / GB
    largest = max(d * f, d * q, vocab_slice if (first or last) else 0)
    if p.sharding == "fsdp2":
        return state + acts + 2 * 4 * (root + block) / GB
    return state + max(acts, 2 * 4 * largest / GB)


def plan(config, gpu, n_gpus, global_batch):
    """The fastest plan whose estimated peak leaves 10% of the GPU free, or None."""
    c = config
    limit_gb = 0.9 * gpu_memory(gpu) / GB
    options = []
    for tp in range(1, 9):
        if c.n_heads % tp or c.n_kv_heads % tp or c.ffn_dim % tp or c.vocab % tp:
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
                for sharding in ("ddp", "zero1", "fsdp2"):
                    for ckpt in (False, True):
                        p = Plan(dp, tp, pp, sharding, m, ckpt)
                        peak = max(_stage_gb(c, p, global_batch, s) for s in {0, pp - 1})
                        if peak <= limit_gb:
                            seconds = step_time(c, gpu, p, global_batch)["total"]
                            options.append((seconds, peak, p))
    if not options:
        return None
    _, _, best = min(options, key=lambda o: (o[0], o[1]))
    chosen = {"dp": int(best.dp)}
    for key, default in DEFAULTS.items():
        if getattr(best, key) != default:
            chosen[key] = getattr(best, key)
    return chosen


answer = plan
