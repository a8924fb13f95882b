# expect: pass a planner class with a 5% safety margin on its estimate, returning a dict that leaves default keys out
# hint:
from dataclasses import dataclass
from functools import cached_property

from d2lgpu.plan import Plan, gpu_memory, step_time
from d2lgpu.scale import formula_bytes

DEFAULTS = {"tp": 1, "pp": 1, "sharding": "ddp", "micro_batches": 1, "checkpointing": False}


@dataclass
class Planner:
    config: object
    gpu: str
    n_gpus: int
    global_batch: int
    margin: float = 1.05

    @cached_property
    def head_dim(self):
        return self.config.dim // self.config.n_heads

    def tp_ok(self, tp):
        c = self.config
        return tp <= 8 and all(x % tp == 0 for x in (c.n_heads, c.n_kv_heads, c.ffn_dim, c.vocab))

    def estimate(self, dp, tp, pp, sharding, m, ckpt):
        c = self.config
        d, t, f, v = c.dim, c.seq_len, c.ffn_dim, c.vocab
        kv = c.n_kv_heads * self.head_dim
        per_block = 2 * d + (2 * d * d + 2 * kv * d + 3 * f * d) // tp
        embed = v * d // tp
        L = c.n_layers // pp
        b = self.global_batch // (dp * m)
        full_block = 4 * t * b * (6 * d + (3 * d + 2 * kv + 4 * f) / tp)
        kept_block = 4 * t * b * d if ckpt else full_block
        peaks = []
        for stage in sorted({0, pp - 1}):
            first, last = stage == 0, stage == pp - 1
            psi = L * per_block + first * embed + last * (embed + d)
            state = sum(formula_bytes(psi, sharding, dp).values())
            live = min(pp, m) if first and pp > 1 else 1
            acts = live * L * kept_block + (full_block if ckpt else 0) + last * 12 * t * b * v / tp
            largest = max(f * d // tp, d * d // tp, embed if (first or last) else 0)
            if sharding == "fsdp2":
                acts += 2 * 4 * (2 * embed + per_block)
                largest = -(-largest // dp)
            peaks.append(state + max(2 * 4 * largest, acts))
        return self.margin * max(peaks)

    def plans(self):
        c, n = self.config, self.n_gpus
        for tp in filter(self.tp_ok, range(1, 9)):
            for pp in (p for p in range(1, c.n_layers + 1) if c.n_layers % p == 0):
                if n % (tp * pp):
                    continue
                dp = n // (tp * pp)
                if self.global_batch % dp:
                    continue
                local = self.global_batch // dp
                for m in (k for k in range(1, local + 1) if local % k == 0):
                    for sharding in ("ddp", "zero1", "fsdp2"):
                        for ckpt in (False, True):
                            yield dp, tp, pp, sharding, m, ckpt

    def best(self):
        room = 0.9 * gpu_memory(self.gpu)
        scored = []
        for dp, tp, pp, sharding, m, ckpt in self.plans():
            if self.estimate(dp, tp, pp, sharding, m, ckpt) > room:
                continue
            chosen = Plan(dp, tp, pp, sharding, m, ckpt)
            scored.append((step_time(self.config, self.gpu, chosen, self.global_batch)["total"],
                           (dp, tp, pp, sharding, m, ckpt)))
        if not scored:
            return None
        dp, tp, pp, sharding, m, ckpt = min(scored)[1]
        full = {"dp": dp, "tp": tp, "pp": pp, "sharding": sharding, "micro_batches": m,
                "checkpointing": ckpt}
        return {k: val for k, val in full.items() if k == "dp" or DEFAULTS[k] != val}


def plan(config, gpu, n_gpus, global_batch):
    return Planner(config, gpu, n_gpus, global_batch).best()


answer = plan
