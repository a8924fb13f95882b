# expect: pass reads the block shapes off a one-block Decoder built inside a `with torch.device("meta")` context (restored), own estimate, returns dataclasses.asdict of a Plan
# hint: 
# name: plan
import dataclasses
import math

import torch
from d2lgpu.llama import Decoder
from d2lgpu.plan import Plan, gpu_memory, step_time
from d2lgpu.scale import formula_bytes

_ROWS = ("q", "k", "v", "gate", "up")  # split by output rows under tensor parallelism
_COLS = ("o", "down")  # split by input columns


def _shapes(config):
    """The block's and the root's parameter shapes, read off a Decoder of one block on meta."""
    small = dataclasses.replace(config, n_layers=1)
    with torch.device("meta"):  # a context: the default device comes back afterwards
        model = Decoder(small)
    block = {name.split(".")[0]: tuple(p.shape) for name, p in model.layers[0].named_parameters()}
    return block, tuple(model.embed.weight.shape), tuple(model.out.weight.shape), config.dim


def _numel_tp(name, shape, tp):
    if name in _ROWS:
        return shape[0] // tp * shape[1]
    if name in _COLS:
        return shape[0] * (shape[1] // tp)
    return math.prod(shape)  # a norm's gain stays whole


def _rank_tensors(config, tp, stage, pp):
    block, embed, out, d = _shapes(config)
    per_block = [_numel_tp(n, s, tp) for n, s in block.items()]
    sizes = per_block * (config.n_layers // pp)
    root = 0
    if stage == 0:
        sizes.append(embed[0] // tp * embed[1])
        root += embed[0] // tp * embed[1]
    if stage == pp - 1:
        sizes += [d, out[0] // tp * out[1]]
        root += d + out[0] // tp * out[1]
    return sizes, sum(per_block), root


def _deal(sizes, n):
    ranks = [0] * n
    for s in sorted(sizes, reverse=True):
        i = min(range(n), key=lambda r: (ranks[r], r))
        ranks[i] += s
    return max(ranks)


def _estimate(config, p, global_batch):
    worst = 0
    for stage in {0, p.pp - 1}:
        sizes, block_params, root = _rank_tensors(config, p.tp, stage, p.pp)
        psi = sum(sizes)
        if p.sharding == "zero1":
            state = 8 * psi + 8 * _deal(sizes, p.dp)
        else:
            state = sum(formula_bytes(psi, p.sharding, p.dp).values())
        t, d = config.seq_len, config.dim
        kv = config.n_kv_heads * (d // config.n_heads)
        full = 4 * t * (6 * d + 3 * (d // p.tp) + 2 * (kv // p.tp) + 4 * (config.ffn_dim // p.tp))
        b = global_batch // (p.dp * p.micro_batches)
        in_flight = min(p.pp, p.micro_batches) if stage == 0 and p.pp > 1 else 1
        kept = 4 * t * d if p.checkpointing else full
        acts = in_flight * b * (config.n_layers // p.pp) * kept + (b * full if p.checkpointing else 0)
        if stage == p.pp - 1:
            acts += 3 * 4 * t * config.vocab // p.tp * b
        if p.sharding == "fsdp2":
            temps = 8 * math.ceil(max(sizes) / p.dp)
            worst = max(worst, state + max(acts + 8 * (root + block_params), temps))
        else:
            worst = max(worst, state + max(acts, 8 * max(sizes)))
    return worst


def plan(config, gpu, n_gpus, global_batch):
    budget = 0.9 * gpu_memory(gpu)
    tps = [t for t in range(1, 9) if not (config.n_heads % t or config.n_kv_heads % t
                                          or config.ffn_dim % t or config.vocab % t)]
    options = []
    for tp in tps:
        for pp in range(1, config.n_layers + 1):
            if config.n_layers % pp or n_gpus % (tp * pp) or global_batch % (n_gpus // (tp * pp)):
                continue
            dp = n_gpus // (tp * pp)
            for m in range(1, global_batch // dp + 1):
                if (global_batch // dp) % m:
                    continue
                for sharding in ("ddp", "zero1", "fsdp2")[: 3 if dp > 1 else 1]:
                    for ckpt in (True, False):
                        p = Plan(dp, tp, pp, sharding, m, ckpt)
                        if _estimate(config, p, global_batch) <= budget:
                            options.append((step_time(config, gpu, p, global_batch)["total"], p))
    if not options:
        return None
    return dataclasses.asdict(min(options, key=lambda x: x[0])[1])
