# expect: fail ZeRO-1's optimizer state sized as an even share (written as works in GiB on both sides, generator pipeline, pp outermost and micro-batches descending, dataclasses.asdict): right until round 48's prompt said ZeRO-1 deals whole tensors; round 51's run of the 1B model on 8 T4s shows it
# hint: ZeRO-1.*whole tensors|even share
import dataclasses

from d2lgpu.plan import Plan, gpu_memory, step_time
from d2lgpu.scale import formula_bytes

GiB = 2**30


def _stage_numbers(c, tp, pp, stage):
    d, kv = c.dim, c.n_kv_heads * c.dim // c.n_heads
    block = [d * d, d * kv, d * kv, d * d, d * c.ffn_dim, d * c.ffn_dim, d * c.ffn_dim]
    block = [n // tp for n in block] + [d, d]
    tensors = list(block) * (c.n_layers // pp)
    if stage == 0:
        tensors.insert(0, c.vocab * d // tp)
    if stage == pp - 1:
        tensors += [d, c.vocab * d // tp]
    return tensors, block


def peak_gib(c, p, batch, stage):
    tensors, block = _stage_numbers(c, p.tp, p.pp, stage)
    state = sum(formula_bytes(sum(tensors), p.sharding, p.dp).values()) / GiB
    t, d = c.seq_len, c.dim
    per_token_block = 4 * (6 * d + (3 * d + 2 * c.n_kv_heads * (d // c.n_heads) + 4 * c.ffn_dim) / p.tp)
    tokens = t * batch // (p.dp * p.micro_batches)  # one micro-batch's tokens
    layers = c.n_layers // p.pp
    if p.checkpointing:
        acts = tokens * (layers * 4 * d + per_token_block)
    else:
        acts = tokens * layers * per_token_block
    if stage == 0 and p.pp > 1:
        acts *= min(p.pp, p.micro_batches)
    if stage == p.pp - 1:
        acts += tokens * 3 * 4 * c.vocab / p.tp
    acts /= GiB
    if p.sharding == "fsdp2":
        gathered = 2 * 4 * (2 * c.vocab * d // p.tp + sum(block)) / GiB
        return state + acts + gathered
    return state + max(acts, 2 * 4 * max(tensors) / GiB)


def _valid(c, n_gpus, batch):
    for pp in (k for k in range(1, c.n_layers + 1) if c.n_layers % k == 0):
        for tp in (k for k in range(1, 9)
                   if all(x % k == 0 for x in (c.n_heads, c.n_kv_heads, c.ffn_dim, c.vocab))):
            dp, rest = divmod(n_gpus, tp * pp)
            if rest or batch % dp:
                continue
            for m in sorted((k for k in range(1, batch // dp + 1) if (batch // dp) % k == 0),
                            reverse=True):
                for ckpt in (True, False):
                    for sharding in ("fsdp2", "zero1", "ddp"):
                        yield Plan(dp, tp, pp, sharding, m, ckpt)


def plan(config, gpu, n_gpus, global_batch):
    limit_gib = 0.9 * gpu_memory(gpu) / GiB
    fitting = (p for p in _valid(config, n_gpus, global_batch)
               if max(peak_gib(config, p, global_batch, s) for s in {0, p.pp - 1}) <= limit_gib)
    timed = ((step_time(config, gpu, p, global_batch)["total"], i, p) for i, p in enumerate(fitting))
    best = min(timed, default=None)
    return None if best is None else dataclasses.asdict(best[2])


answer = plan
