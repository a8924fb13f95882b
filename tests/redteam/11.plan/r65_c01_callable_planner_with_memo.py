# expect: pass
# hint:
# Right: a callable class instance; its memo is keyed by all four arguments (config, gpu,
# n_gpus, global_batch), so a repeated run gets the same, still right, plan.
import math

from d2lgpu.plan import Plan, gpu_memory, step_time
from d2lgpu.scale import formula_bytes


class Planner:
    """plan(config, gpu, n_gpus, global_batch): the fastest plan that leaves 10% free, or None."""

    headroom = 0.10
    shardings = ("ddp", "zero1", "fsdp2")

    def __init__(self):
        self._memo = {}

    def __call__(self, config, gpu, n_gpus, global_batch):
        key = (config, gpu, n_gpus, global_batch)
        if key not in self._memo:
            self._memo[key] = self._search(config, gpu, n_gpus, global_batch)
        found = self._memo[key]
        return None if found is None else dict(found)  # a copy: the caller may edit it

    # -- the rank's tensors ------------------------------------------------------------
    @staticmethod
    def _block(config, tp):
        d, f = config.dim, config.ffn_dim
        kv = config.n_kv_heads * (d // config.n_heads)
        matrices = [d * d, d * kv, d * kv, d * d, d * f, d * f, f * d]
        return [d, d] + [n // tp for n in matrices]

    def _tensors(self, config, tp, stage, pp):
        head = config.vocab * config.dim // tp
        sizes = self._block(config, tp) * (config.n_layers // pp)
        if stage == 0:
            sizes.append(head)  # embedding
        if stage == pp - 1:
            sizes += [config.dim, head]  # final norm, output layer
        return sizes

    # -- one rank's peak ---------------------------------------------------------------
    def _peak(self, config, p, global_batch, stage):
        sizes = self._tensors(config, p.tp, stage, p.pp)
        state = formula_bytes(sum(sizes), p.sharding, p.dp)
        moments = state["optimizer"]
        if p.sharding == "zero1":
            moments = max(moments, 8 * max(sizes))  # whole tensors: the largest one's moments
        kept = state["params"] + state["grads"] + moments + 4 * len(sizes)

        t, d = config.seq_len, config.dim
        kv = config.n_kv_heads * (d // config.n_heads)
        full = 4 * t * (6 * d + (3 * d + 2 * kv + 4 * config.ffn_dim) / p.tp)
        seqs = global_batch // (p.dp * p.micro_batches)
        held = min(p.pp, p.micro_batches) if (stage == 0 and p.pp > 1) else 1
        kept_per_block = 4 * t * d if p.checkpointing else full
        activations = held * seqs * (config.n_layers // p.pp) * kept_per_block
        activations += seqs * full if p.checkpointing else 0
        if stage == p.pp - 1:
            activations += seqs * 12 * t * config.vocab / p.tp

        temporaries = 8 * max(sizes) / (p.dp if p.sharding == "fsdp2" else 1)
        if p.sharding != "fsdp2":
            return kept + max(temporaries, activations)
        roots = int(stage == 0) + int(stage == p.pp - 1)
        gathered = 8 * (roots * config.vocab * d / p.tp + sum(self._block(config, p.tp)))
        return kept + max(temporaries, activations + gathered)

    # -- the search --------------------------------------------------------------------
    def _search(self, config, gpu, n_gpus, global_batch):
        limit = (1 - self.headroom) * gpu_memory(gpu)
        tps = [t for t in range(1, 9)
               if not any(n % t for n in (config.n_heads, config.n_kv_heads, config.ffn_dim, config.vocab))]  # fmt: skip
        best, fastest = None, math.inf
        for tp in tps:
            for pp in range(1, config.n_layers + 1):
                if config.n_layers % pp or n_gpus % (tp * pp):
                    continue
                dp = n_gpus // (tp * pp)
                if global_batch % dp:
                    continue
                per_rank = global_batch // dp
                for m in (k for k in range(1, per_rank + 1) if per_rank % k == 0):
                    for sharding in self.shardings:
                        for ckpt in (False, True):
                            p = Plan(dp, tp, pp, sharding, m, ckpt)
                            seconds = step_time(config, gpu, p, global_batch)["total"]
                            if seconds >= fastest:
                                continue
                            stages = {0, pp - 1}
                            if all(self._peak(config, p, global_batch, s) <= limit for s in stages):
                                best, fastest = p, seconds
        if best is None:
            return None
        return {"dp": best.dp, "tp": best.tp, "pp": best.pp, "sharding": best.sharding,
                "micro_batches": best.micro_batches, "checkpointing": best.checkpointing}  # fmt: skip


answer = Planner()
