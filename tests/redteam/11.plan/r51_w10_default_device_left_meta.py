# expect: fail counts the tensors by building the Decoder under torch.set_default_device("meta") and never puts the default device back
# hint: default.?device|set_default_device|meta|process|put back|restore|changed|left
import math

import torch

from d2lgpu.llama import Decoder
from d2lgpu.plan import Plan, gpu_memory, step_time
from d2lgpu.scale import formula_bytes


def _sizes(config):
    """Numbers of elements of the model's tensors, from the module itself, for free."""
    torch.set_default_device("meta")  # no storage: a 70B model costs nothing
    model = Decoder(config)
    return [p.numel() for p in model.parameters()]


def _options(config, n_gpus, global_batch):
    for tp in (1, 2, 4, 8):
        if tp > n_gpus or any(
            x % tp for x in (config.n_heads, config.n_kv_heads, config.ffn_dim, config.vocab)
        ):
            continue
        for pp in range(1, config.n_layers + 1):
            if config.n_layers % pp or n_gpus % (tp * pp):
                continue
            dp = n_gpus // (tp * pp)
            if global_batch % dp:
                continue
            per_rank = global_batch // dp
            for sharding in ("ddp", "zero1", "fsdp2"):
                for m in (k for k in range(1, per_rank + 1) if per_rank % k == 0):
                    for ckpt in (False, True):
                        yield Plan(dp, tp, pp, sharding, m, ckpt)


def _peak(config, sizes, p, global_batch):
    d, f, vocab, t = config.dim, config.ffn_dim, config.vocab, config.seq_len
    kv_dim = config.n_kv_heads * (d // config.n_heads)
    emb = vocab * d
    block_all = (sum(sizes) - 2 * emb - d) // config.n_layers  # matrices and two norms
    block_matrices = block_all - 2 * d
    blocks = config.n_layers // p.pp
    b = global_batch // p.dp // p.micro_batches
    held0 = min(p.pp, p.micro_batches) if p.pp > 1 else 1
    per_block = 4 * t * (6 * d + (3 * d + 2 * kv_dim + 4 * f) / p.tp) * b
    worst = 0
    for first, last in {(True, p.pp == 1), (p.pp == 1, True)}:
        psi = blocks * (block_matrices / p.tp + 2 * d) + first * emb / p.tp
        psi += last * (emb / p.tp + d)
        state = formula_bytes(math.ceil(psi), p.sharding, p.dp)
        largest = max(d * f / p.tp, (first or last) * emb / p.tp)
        if p.sharding == "zero1":
            state["optimizer"] = max(state["optimizer"], 8 * largest)
        held = held0 if first else 1
        saved = 4 * t * d * b if p.checkpointing else per_block
        acts = held * blocks * saved + (per_block if p.checkpointing else 0)
        acts += last * 12 * t * vocab / p.tp * b
        adam = 8 * largest / (p.dp if p.sharding == "fsdp2" else 1)
        if p.sharding == "fsdp2":
            acts += 8 * ((first + last) * emb / p.tp + block_matrices / p.tp)
        worst = max(worst, sum(state.values()) + max(acts, adam))
    return worst


def plan(config, gpu, n_gpus, global_batch):
    """The fastest plan whose estimated peak leaves 10% of the GPU free, or None."""
    sizes = _sizes(config)
    budget = 0.9 * gpu_memory(gpu)
    fitting = [p for p in _options(config, n_gpus, global_batch)
               if _peak(config, sizes, p, global_batch) <= budget]
    if not fitting:
        return None
    return min(fitting, key=lambda p: step_time(config, gpu, p, global_batch)["total"])


answer = plan
