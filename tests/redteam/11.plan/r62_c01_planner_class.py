# expect: pass a Planner class whose instance is called like the function, with a per-problem cache keyed on all four arguments and the prompt's estimate split into small methods
# hint:
import math

from d2lgpu.plan import Plan, gpu_memory, step_time


class Planner:
    """Plans a run: every valid plan, sized with the chapter's estimate, timed with step_time."""

    SHARDINGS = ("ddp", "zero1", "fsdp2")

    def __init__(self, headroom=0.10):
        self.headroom = headroom
        self._done = {}

    def __call__(self, config, gpu, n_gpus, global_batch):
        key = (config, gpu, n_gpus, global_batch)
        if key not in self._done:
            self._done[key] = self._search(config, gpu, n_gpus, global_batch)
        found = self._done[key]
        return None if found is None else dict(found)  # a fresh dict for every caller

    # --- the search -----------------------------------------------------------------
    def _tp_degrees(self, config, n_gpus):
        return [t for t in range(1, 9)
                if n_gpus % t == 0
                and all(x % t == 0 for x in (config.n_heads, config.n_kv_heads,
                                             config.ffn_dim, config.vocab))]

    def _search(self, config, gpu, n_gpus, global_batch):
        budget = (1 - self.headroom) * gpu_memory(gpu)
        fastest, chosen = math.inf, None
        for tp in self._tp_degrees(config, n_gpus):
            for pp in (p for p in range(1, config.n_layers + 1) if config.n_layers % p == 0):
                if n_gpus % (tp * pp):
                    continue
                dp = n_gpus // (tp * pp)
                if global_batch % dp:
                    continue
                local = global_batch // dp
                for m in (k for k in range(1, local + 1) if local % k == 0):
                    for sharding in self.SHARDINGS if dp > 1 else ("ddp",):
                        for ckpt in (False, True):
                            p = Plan(dp, tp, pp, sharding, m, ckpt)
                            if self.peak(config, p, global_batch) > budget:
                                continue
                            seconds = step_time(config, gpu, p, global_batch)["total"]
                            if seconds < fastest:
                                fastest, chosen = seconds, p
        if chosen is None:
            return None
        return {"dp": chosen.dp, "tp": chosen.tp, "pp": chosen.pp, "sharding": chosen.sharding,
                "micro_batches": chosen.micro_batches, "checkpointing": chosen.checkpointing}

    # --- the estimate ---------------------------------------------------------------
    @staticmethod
    def block_shapes(config, tp):
        d, hd = config.dim, config.dim // config.n_heads
        q, kv, f = config.n_heads * hd // tp, config.n_kv_heads * hd // tp, config.ffn_dim // tp
        return [(d,), (d,), (q, d), (kv, d), (kv, d), (d, q), (f, d), (f, d), (d, f)]

    def stage_shapes(self, config, tp, stage, pp):
        head = [(config.vocab // tp, config.dim)]
        out = head if stage == 0 else []
        out = out + self.block_shapes(config, tp) * (config.n_layers // pp)
        return out + ([(config.dim,)] + head if stage == pp - 1 else [])

    @staticmethod
    def state(shapes, sharding, dp):
        numels = [math.prod(s) for s in shapes]
        counters = 4 * len(shapes)
        if sharding == "fsdp2":
            rows = sum(-(-s[0] // dp) * math.prod(s[1:]) for s in shapes)
            return 4 * rows + 4 * rows + 8 * rows + counters
        if sharding == "zero1":
            load = [[0, 0] for _ in range(dp)]  # elements, tensors per rank
            for n in sorted(numels, reverse=True):
                owner = min(range(dp), key=lambda r: (load[r][0], r))
                load[owner][0] += n
                load[owner][1] += 1
            return 8 * sum(numels) + max(8 * e + 4 * c for e, c in load)
        return 16 * sum(numels) + counters

    def activations(self, config, p, global_batch, stage):
        t, d = config.seq_len, config.dim
        hd = d // config.n_heads
        q, kv, f = config.n_heads * hd // p.tp, config.n_kv_heads * hd // p.tp, config.ffn_dim // p.tp
        per_block = 4 * t * (6 * d + 3 * q + 2 * kv + 4 * f)
        blocks = config.n_layers // p.pp
        seq = blocks * 4 * t * d + per_block if p.checkpointing else blocks * per_block
        if stage == p.pp - 1:
            seq += 3 * 4 * t * (config.vocab // p.tp)
        sequences = global_batch // (p.dp * p.micro_batches)
        if stage == 0 and p.pp > 1:
            sequences *= min(p.pp, p.micro_batches)
        return sequences * seq

    def peak(self, config, p, global_batch):
        worst = 0
        for stage in sorted({0, p.pp - 1}):
            shapes = self.stage_shapes(config, p.tp, stage, p.pp)
            kept = self.state(shapes, p.sharding, p.dp)
            acts = self.activations(config, p, global_batch, stage)
            if p.sharding == "fsdp2":
                root = (config.vocab // p.tp * config.dim) * ((stage == 0) + (stage == p.pp - 1))
                root += config.dim if stage == p.pp - 1 else 0
                block = sum(math.prod(s) for s in self.block_shapes(config, p.tp))
                total = kept + acts + 2 * 4 * (root + block)
            else:
                total = kept + max(acts, 2 * 4 * max(math.prod(s) for s in shapes))
            worst = max(worst, total)
        return worst


answer = Planner()
