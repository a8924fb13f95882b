# expect: fail sizes every candidate's activations in torch.int32 tensors; a micro-batch's logits or a long sequence's block pass 2**31 bytes and wrap to small or negative counts, so plans that do not fit look as if they do
# hint: int32|32.?bit|overflow|wrap|negative|dtype|integer|activation|peak|exceed|leaves? less than 10|does not fit|too much memory
# Wrong: the plan must leave 10% free by the bytes it really holds (11.1's prompt warns that
# a rank's bytes pass 32 bits); 125M on 4 T4s takes 1 micro-batch of 8 at 21 GB > 14.4.

import math

import torch

from d2lgpu.plan import Plan, gpu_memory, step_time
from d2lgpu.scale import formula_bytes

F32 = 4  # bytes of a float32


def _divisors(n):
    return [k for k in range(1, n + 1) if n % k == 0]


def _stage_tensors(config, tp, stage, pp):
    """Element counts of the tensors one rank holds: its stage, a tp-th of every matrix."""
    d, f, vocab = config.dim, config.ffn_dim, config.vocab
    kv = config.n_kv_heads * (d // config.n_heads)
    block = [d, d * d // tp, d * kv // tp, d * kv // tp, d * d // tp, d,
             d * f // tp, d * f // tp, f * d // tp]  # fmt: skip
    sizes = [vocab * d // tp] if stage == 0 else []
    sizes += block * (config.n_layers // pp)
    if stage == pp - 1:
        sizes += [d, vocab * d // tp]
    return sizes, block



def _allowed_tp(config):
    sizes = (config.n_heads, config.n_kv_heads, config.ffn_dim, config.vocab)
    return [t for t in range(1, 9) if all(s % t == 0 for s in sizes)]


def _activations(config, plans, global_batch, last):
    """Every candidate's activation bytes at once (int32: small integers, half the memory)."""
    i32 = dict(dtype=torch.int32)
    dp, tp, pp, m = (torch.tensor([getattr(p, k) for p in plans], **i32)
                     for k in ("dp", "tp", "pp", "micro_batches"))  # fmt: skip
    ckpt = torch.tensor([p.checkpointing for p in plans])
    t, d = config.seq_len, config.dim
    kv = config.n_kv_heads * (d // config.n_heads)
    full = 4 * t * (6 * d + 3 * (d // tp) + 2 * (kv // tp) + 4 * (config.ffn_dim // tp))
    b = global_batch // (dp * m)
    blocks = config.n_layers // pp
    if last:  # the last stage: one micro-batch in flight, plus the logits
        acts = b * blocks * torch.where(ckpt, 4 * t * d, full)
        acts = acts + b * 3 * 4 * t * (config.vocab // tp)
    else:  # the first stage: 1F1B holds min(pp, m) micro-batches
        acts = torch.minimum(pp, m) * b * blocks * torch.where(ckpt, 4 * t * d, full)
    return acts + torch.where(ckpt, b * full, 0)


def _state(config, p, stage):
    """(kept state, Adam's temporaries, FSDP2's gathered buffers) of one rank, bytes."""
    sizes, block = _stage_tensors(config, p.tp, stage, p.pp)
    psi, largest = sum(sizes), max(sizes)
    state = formula_bytes(psi, p.sharding, p.dp)
    optimizer = state["optimizer"]
    if p.sharding == "zero1":
        optimizer = max(optimizer, 2 * F32 * largest)
    kept = state["params"] + state["grads"] + optimizer + F32 * len(sizes)
    shard = p.dp if p.sharding == "fsdp2" else 1
    roots = (stage == 0) + (stage == p.pp - 1)
    gathered = 2 * F32 * (roots * (config.vocab * config.dim // p.tp) + sum(block))
    return kept, 2 * F32 * math.ceil(largest / shard), gathered


def answer(config, gpu, n_gpus, global_batch):
    limit = 0.9 * gpu_memory(gpu)
    plans = []
    for tp in _allowed_tp(config):
        for pp in _divisors(config.n_layers):
            if n_gpus % (tp * pp) or global_batch % (n_gpus // (tp * pp)):
                continue
            dp = n_gpus // (tp * pp)
            for m in _divisors(global_batch // dp):
                for sharding in ("ddp", "zero1", "fsdp2"):
                    for checkpointing in (False, True):
                        plans.append(Plan(dp, tp, pp, sharding, m, checkpointing))
    if not plans:
        return None
    first = _activations(config, plans, global_batch, last=False).tolist()
    last = _activations(config, plans, global_batch, last=True).tolist()
    best, best_seconds = None, math.inf
    for i, p in enumerate(plans):
        peak = 0
        for stage in {0, p.pp - 1}:
            kept, temps, gathered = _state(config, p, stage)
            acts = (last[i] if stage == p.pp - 1 else 0) + (first[i] if stage == 0 and p.pp > 1 else 0)
            if p.sharding == "fsdp2":
                peak = max(peak, kept + max(temps, acts + gathered))
            else:
                peak = max(peak, kept + max(temps, acts))
        if peak > limit:
            continue
        seconds = step_time(config, gpu, p, global_batch)["total"]
        if seconds < best_seconds:
            best, best_seconds = p, seconds
    if best is None:
        return None
    return {
        "dp": best.dp,
        "tp": best.tp,
        "pp": best.pp,
        "sharding": best.sharding,
        "micro_batches": best.micro_batches,
        "checkpointing": best.checkpointing,
    }
