# expect: pass a Planner class with __call__ that deals ZeRO-1's whole tensors exactly, counts FSDP2's padded shards, and returns a d2lgpu.plan.Plan
# hint:
import math

from d2lgpu.plan import Plan, gpu_memory, step_time


class Planner:
    """Search every legal plan; keep the fastest whose estimated peak leaves 10% free."""

    shardings = ("ddp", "zero1", "fsdp2")
    node = 8

    def __call__(self, config, gpu, n_gpus, global_batch):
        limit = 0.9 * gpu_memory(gpu)
        fastest = None
        for p in self.plans(config, n_gpus, global_batch):
            if self.peak(config, p, global_batch) > limit:
                continue
            seconds = step_time(config, gpu, p, global_batch)["total"]
            if fastest is None or seconds < fastest[0]:
                fastest = (seconds, p)
        return None if fastest is None else fastest[1]

    # the plans the exercise allows
    def plans(self, config, n_gpus, global_batch):
        splits = (config.n_heads, config.n_kv_heads, config.ffn_dim, config.vocab)
        for tp in range(1, self.node + 1):
            if any(s % tp for s in splits):
                continue
            for pp in range(1, config.n_layers + 1):
                if config.n_layers % pp or n_gpus % (tp * pp):
                    continue
                dp = n_gpus // (tp * pp)
                if global_batch % dp:
                    continue
                per_rank = global_batch // dp
                for m in range(1, per_rank + 1):
                    if per_rank % m:
                        continue
                    for sharding in self.shardings if dp > 1 else ("ddp",):
                        for checkpointing in (False, True):
                            yield Plan(dp, tp, pp, sharding, m, checkpointing)

    # what one rank holds
    @staticmethod
    def block_shapes(config, tp):
        d, hd = config.dim, config.dim // config.n_heads
        q, kv, f = config.n_heads // tp * hd, config.n_kv_heads // tp * hd, config.ffn_dim // tp
        return [(d,), (d,), (q, d), (kv, d), (kv, d), (d, q), (f, d), (f, d), (d, f)]

    def stage_shapes(self, config, tp, stage, pp):
        d, vocab = config.dim, config.vocab // tp
        shapes = [(vocab, d)] if stage == 0 else []
        shapes += self.block_shapes(config, tp) * (config.n_layers // pp)
        if stage == pp - 1:
            shapes += [(d,), (vocab, d)]
        return shapes

    @staticmethod
    def state(shapes, sharding, dp):
        numels = [math.prod(s) for s in shapes]
        if sharding == "fsdp2":  # ceil(rows / dp) rows of every tensor, padded
            local = sum(math.ceil(s[0] / dp) * math.prod(s[1:]) for s in shapes)
            return 4 * local + 4 * local + 8 * local + 4 * len(shapes)
        weights_and_grads = 8 * sum(numels)
        if sharding == "ddp":
            return weights_and_grads + 8 * sum(numels) + 4 * len(numels)
        # ZeRO-1: whole tensors, largest first, to the rank that holds the fewest elements
        held, count = [0] * dp, [0] * dp
        for n in sorted(numels, reverse=True):
            r = held.index(min(held))
            held[r] += n
            count[r] += 1
        return weights_and_grads + max(8 * h + 4 * c for h, c in zip(held, count))

    def activations(self, config, p, global_batch, stage):
        t, d, tp = config.seq_len, config.dim, p.tp
        q = d // tp
        kv = config.n_kv_heads * (d // config.n_heads) // tp
        f = config.ffn_dim // tp
        seqs = global_batch // (p.dp * p.micro_batches)
        full = 4 * t * (6 * d + 3 * q + 2 * kv + 4 * f)
        kept = 4 * t * d if p.checkpointing else full
        in_flight = min(p.pp, p.micro_batches) if stage == 0 and p.pp > 1 else 1
        total = in_flight * seqs * (config.n_layers // p.pp) * kept
        if p.checkpointing:
            total += seqs * full  # one block recomputed in backward
        if stage == p.pp - 1:
            total += seqs * 3 * 4 * t * config.vocab // tp
        return total

    def peak(self, config, p, global_batch):
        worst = 0
        for stage in {0, p.pp - 1}:
            shapes = self.stage_shapes(config, p.tp, stage, p.pp)
            state = self.state(shapes, p.sharding, p.dp)
            acts = self.activations(config, p, global_batch, stage)
            if p.sharding == "fsdp2":
                vocab, d = config.vocab // p.tp, config.dim
                root = (vocab * d if stage == 0 else 0) + (d + vocab * d if stage == p.pp - 1 else 0)
                block = sum(math.prod(s) for s in self.block_shapes(config, p.tp))
                total = state + acts + 8 * (root + block)
            else:
                adam_temporaries = 8 * max(math.prod(s) for s in shapes)
                total = state + max(acts, adam_temporaries)
            worst = max(worst, total)
        return worst


answer = Planner()
