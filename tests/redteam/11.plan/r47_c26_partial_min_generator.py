# expect: pass functools.partial binds the headroom; min() over a generator of (time, plan) pairs; per-part helper functions; a tuple of Plan fields built per call
# hint:
import functools
import math

from d2lgpu.plan import Plan, gpu_memory, step_time
from d2lgpu.scale import formula_bytes

BYTES = 4  # float32


def _divisors(n):
    return (k for k in range(1, n + 1) if n % k == 0)


def _widths(config, tp):
    head_dim = config.dim // config.n_heads
    return config.dim // tp, config.n_kv_heads * head_dim // tp, config.ffn_dim // tp


def _block_params(config, tp):
    d = config.dim
    q, kv, f = _widths(config, tp)
    return 2 * d + 2 * d * q + 2 * d * kv + 3 * d * f


def _stage_params(config, p, first, last):
    table = config.vocab * config.dim // p.tp
    return (config.n_layers // p.pp) * _block_params(config, p.tp) + first * table + last * (table + config.dim)


def _activations(config, p, global_batch, first, last):
    d, t = config.dim, config.seq_len
    q, kv, f = _widths(config, p.tp)
    per_seq_block = BYTES * t * (6 * d + 3 * q + 2 * kv + 4 * f)
    per_seq_input = BYTES * t * d
    seqs = global_batch // (p.dp * p.micro_batches)
    in_flight = min(p.pp, p.micro_batches) if first else 1
    blocks = config.n_layers // p.pp
    if p.checkpointing:
        total = in_flight * seqs * blocks * per_seq_input + seqs * per_seq_block
    else:
        total = in_flight * seqs * blocks * per_seq_block
    if first:
        total += in_flight * seqs * per_seq_input
    if last:
        total += seqs * 3 * BYTES * t * (config.vocab // p.tp + d)
    return total


def _peak(config, p, global_batch):
    table = config.vocab * config.dim // p.tp
    largest = max(table, config.dim * (config.ffn_dim // p.tp))
    peaks = []
    for first, last in {(True, p.pp == 1), (p.pp == 1, True)}:
        state = sum(formula_bytes(_stage_params(config, p, first, last), p.sharding, p.dp).values())
        if p.sharding == "zero1":
            state += 2 * BYTES * largest
        live = _activations(config, p, global_batch, first, last)
        if p.sharding == "fsdp2":
            live += 2 * BYTES * ((first + last) * table + _block_params(config, p.tp))
        peaks.append(state + max(2 * BYTES * largest, live))
    return 1.01 * max(peaks)


def _valid(config, n_gpus, global_batch):
    for tp in _divisors(min(8, n_gpus)):
        if any(x % tp for x in (config.n_heads, config.n_kv_heads, config.ffn_dim, config.vocab)):
            continue
        for pp in _divisors(config.n_layers):
            if n_gpus % (tp * pp) or global_batch % (n_gpus // (tp * pp)):
                continue
            dp = n_gpus // (tp * pp)
            for m in _divisors(global_batch // dp):
                for sharding in ("ddp", "zero1", "fsdp2"):
                    yield from (Plan(dp, tp, pp, sharding, m, c) for c in (False, True))


def _plan(config, gpu, n_gpus, global_batch, *, free):
    budget = (1 - free) * gpu_memory(gpu)
    fitting = ((step_time(config, gpu, p, global_batch)["total"], i, p)
               for i, p in enumerate(_valid(config, n_gpus, global_batch))
               if _peak(config, p, global_batch) <= budget)  # fmt: skip
    best = min(fitting, default=None)
    if best is None:
        return None
    p = best[2]
    return {"dp": p.dp, "tp": p.tp, "pp": p.pp, "sharding": p.sharding,
            "micro_batches": p.micro_batches, "checkpointing": p.checkpointing}


answer = functools.partial(_plan, free=0.10)
