# expect: pass itertools.product over the options, an estimator class, functools.partial for the timing, a slightly stricter budget, dict with only the non-default keys
# hint:
import functools
import itertools
import math

from d2lgpu.plan import Plan, gpu_memory, step_time
from d2lgpu.scale import formula_bytes

FP32 = 4


class RankEstimate:
    """Peak bytes on the rank that holds the most, by section 11.2's and the prompt's rules."""

    def __init__(self, config, global_batch):
        self.c = config
        self.batch = global_batch
        head_dim = config.dim // config.n_heads
        self.kv_dim = config.n_kv_heads * head_dim
        d, f = config.dim, config.ffn_dim
        self.block_matrices = 2 * d * d + 2 * d * self.kv_dim + 3 * d * f
        self.table = config.vocab * d  # the embedding, and the output layer, each

    def stage(self, p, first, last):
        c, d, t = self.c, self.c.dim, self.c.seq_len
        blocks = c.n_layers // p.pp
        psi = blocks * (self.block_matrices / p.tp + 2 * d)
        psi += (first + last) * self.table / p.tp + last * d
        state = formula_bytes(math.ceil(psi), p.sharding, p.dp)
        largest = max(d * c.ffn_dim / p.tp, (first or last) * self.table / p.tp)
        if p.sharding == "zero1":  # whole tensors: at least the largest one's moments
            state["optimizer"] = max(state["optimizer"], 2 * FP32 * largest)
        seqs = self.batch // (p.dp * p.micro_batches)
        q, kv, ff = d / p.tp, self.kv_dim / p.tp, c.ffn_dim / p.tp
        full = FP32 * t * (6 * d + 3 * q + 2 * kv + 4 * ff) * seqs
        kept = FP32 * t * d * seqs if p.checkpointing else full
        micro = min(p.pp, p.micro_batches) if (p.pp > 1 and first) else 1
        activations = micro * blocks * kept + (full if p.checkpointing else 0)
        activations += last * 3 * FP32 * t * c.vocab / p.tp * seqs
        if p.sharding == "fsdp2":
            gathered = (first + last) * self.table / p.tp + self.block_matrices / p.tp
            activations += 2 * FP32 * gathered
            largest /= p.dp
        temporaries = 2 * FP32 * largest
        return sum(state.values()) + max(activations, temporaries)

    def peak(self, p):
        ends = [(True, p.pp == 1)] if p.pp == 1 else [(True, False), (False, True)]
        return max(self.stage(p, first, last) for first, last in ends)


def _splits(config):
    return [tp for tp in (1, 2, 4, 8)
            if all(x % tp == 0 for x in (config.n_heads, config.n_kv_heads, config.ffn_dim,
                                         config.vocab))]  # fmt: skip


def plan(config, gpu, n_gpus, global_batch):
    """The fastest plan whose estimated peak leaves 10% of the GPU free, or None."""
    estimate = RankEstimate(config, global_batch)
    seconds = functools.partial(step_time, config, gpu, global_batch=global_batch)
    budget = 0.89 * gpu_memory(gpu)  # a hair under 90%, for rounding
    stages = [pp for pp in range(1, config.n_layers + 1) if config.n_layers % pp == 0]
    fits = []
    for tp, pp in itertools.product(_splits(config), stages):
        if n_gpus % (tp * pp) or global_batch % (n_gpus // (tp * pp)):
            continue
        dp = n_gpus // (tp * pp)
        per_rank = global_batch // dp
        micro = [m for m in range(1, per_rank + 1) if per_rank % m == 0]
        for sharding, m, ckpt in itertools.product(("ddp", "zero1", "fsdp2"), micro, (False, True)):
            candidate = Plan(dp=dp, tp=tp, pp=pp, sharding=sharding, micro_batches=m,
                             checkpointing=ckpt)  # fmt: skip
            if estimate.peak(candidate) <= budget:
                fits.append((seconds(plan=candidate)["total"], candidate))
    if not fits:
        return None
    _, chosen = min(fits, key=lambda pair: pair[0])
    defaults = {"tp": 1, "pp": 1, "sharding": "ddp", "micro_batches": 1, "checkpointing": False}
    out = {"dp": chosen.dp}
    for key, default in defaults.items():
        value = getattr(chosen, key)
        if value != default:
            out[key] = value
    return out


answer = plan
