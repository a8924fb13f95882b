# expect: fail per-stage parameter count memoized on (pp, tp, stage) with the model read from a global: the next model reuses the previous one's counts
# hint: cach|stale|previous|state|call|fit|free|10 ?%|headroom|peak|None
import functools

from d2lgpu.plan import Plan, gpu_memory, step_time
from d2lgpu.scale import formula_bytes

_CONFIG = None  # the model being planned; set by plan()


def _divisors(n):
    return [k for k in range(1, n + 1) if n % k == 0]


@functools.lru_cache(maxsize=None)
def _stage_params(pp, tp, first, last):
    """Parameters one rank holds on its stage (called for every plan: cached)."""
    c = _CONFIG
    kv_dim = c.n_kv_heads * (c.dim // c.n_heads)
    block = (2 * c.dim * c.dim + 2 * c.dim * kv_dim + 3 * c.dim * c.ffn_dim) / tp + 2 * c.dim
    psi = c.n_layers // pp * block
    psi += first * c.vocab * c.dim / tp + last * (c.vocab * c.dim / tp + c.dim)
    largest = max(c.dim * c.ffn_dim / tp, (first or last) * c.vocab * c.dim / tp)
    return int(psi), largest


def _peak(config, global_batch, dp, tp, pp, sharding, m, ckpt):
    d, f, vocab, t = config.dim, config.ffn_dim, config.vocab, config.seq_len
    kv_dim = config.n_kv_heads * (d // config.n_heads)
    block_matrices = 2 * d * d + 2 * d * kv_dim + 3 * d * f
    blocks = config.n_layers // pp
    b = global_batch // dp // m
    in_flight = min(pp, m) if pp > 1 else 1
    per_block = 4 * t * (6 * d + 3 * d / tp + 2 * kv_dim / tp + 4 * f / tp) * b
    head = 3 * 4 * t * vocab / tp * b
    worst = 0
    for stage in {0, pp - 1}:
        first, last = stage == 0, stage == pp - 1
        psi, largest = _stage_params(pp, tp, first, last)
        state = formula_bytes(psi, sharding, dp)
        if sharding == "zero1":
            state["optimizer"] = max(state["optimizer"], 8 * largest)
        held = in_flight if first else 1
        if ckpt:
            acts = held * blocks * 4 * t * d * b + per_block
        else:
            acts = held * blocks * per_block
        acts += last * head
        adam = 8 * (largest / dp if sharding == "fsdp2" else largest)
        if sharding == "fsdp2":
            acts += 8 * ((first + last) * vocab * d / tp + block_matrices / tp)
        worst = max(worst, sum(state.values()) + max(acts, adam))
    return worst


def plan(config, gpu, n_gpus, global_batch):
    """The fastest plan whose estimated peak leaves 10% of the GPU free, or None."""
    global _CONFIG
    _CONFIG = config
    budget = 0.9 * gpu_memory(gpu)
    best, best_time = None, float("inf")
    for tp in _divisors(min(8, n_gpus)):
        if any(x % tp for x in (config.n_heads, config.n_kv_heads, config.ffn_dim, config.vocab)):
            continue
        for pp in _divisors(config.n_layers):
            if n_gpus % (tp * pp) or global_batch % (n_gpus // (tp * pp)):
                continue
            dp = n_gpus // (tp * pp)
            for sharding in ("ddp", "zero1", "fsdp2"):
                for m in _divisors(global_batch // dp):
                    for ckpt in (False, True):
                        if _peak(config, global_batch, dp, tp, pp, sharding, m, ckpt) > budget:
                            continue
                        candidate = Plan(dp, tp, pp, sharding, m, ckpt)
                        seconds = step_time(config, gpu, candidate, global_batch)["total"]
                        if seconds < best_time:
                            best, best_time = candidate, seconds
    return best


answer = plan
