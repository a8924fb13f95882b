# expect: pass a Planner class with __call__, d2lgpu.plan.candidates for the enumeration, heapq for ZeRO-1's dealing, returns a Plan object
# hint: 
# name: plan
import heapq
import math

import d2lgpu.plan as planning
from d2lgpu.scale import formula_bytes


class Planner:
    """A callable planner: d2lgpu.plan.candidates for the plans, its own estimate for memory."""

    def __init__(self, headroom=0.10):
        self.headroom = headroom

    @staticmethod
    def tensors(c, tp, stage, pp):
        d, kv = c.dim, c.n_kv_heads * (c.dim // c.n_heads)
        # q, k, v, o, gate, up, down (a tp-th each), two norms' gains (whole)
        block = [d * d // tp, d * kv // tp, d * kv // tp, d * d // tp] + [d * c.ffn_dim // tp] * 3 + [d, d]
        out = block * (c.n_layers // pp)
        root = 0
        if stage == 0:
            out.append(c.vocab * d // tp)
            root += c.vocab * d // tp
        if stage == pp - 1:
            out.extend([d, c.vocab * d // tp])
            root += d + c.vocab * d // tp
        return out, sum(block), root

    @staticmethod
    def zero1_rank_bytes(sizes, n):
        heap = [(0, r) for r in range(n)]  # (elements held, rank): fewest first, lowest rank on a tie
        worst = 0
        for size in sorted(sizes, reverse=True):
            held, rank = heapq.heappop(heap)
            heapq.heappush(heap, (held + size, rank))
            worst = max(worst, held + size)
        return 8 * worst

    def peak(self, c, p, batch, stage):
        sizes, block_params, root = self.tensors(c, p.tp, stage, p.pp)
        psi = sum(sizes)
        if p.sharding == "zero1":
            state = 4 * psi + 4 * psi + self.zero1_rank_bytes(sizes, p.dp)
        else:
            state = sum(formula_bytes(psi, p.sharding, p.dp).values())
        t, d = c.seq_len, c.dim
        q = d / p.tp
        kv = c.n_kv_heads * (d // c.n_heads) / p.tp
        f = c.ffn_dim / p.tp
        block_full = 4 * t * (6 * d + 3 * q + 2 * kv + 4 * f)
        seqs = batch / (p.dp * p.micro_batches)
        depth = c.n_layers / p.pp
        held = min(p.pp, p.micro_batches) if stage == 0 and p.pp > 1 else 1
        if p.checkpointing:
            acts = held * seqs * depth * 4 * t * d + seqs * block_full
        else:
            acts = held * seqs * depth * block_full
        if stage == p.pp - 1:
            acts += seqs * 3 * 4 * t * c.vocab / p.tp
        biggest = max(sizes) if p.sharding != "fsdp2" else math.ceil(max(sizes) / p.dp)
        adam_temps = 8 * biggest
        if p.sharding == "fsdp2":
            return state + max(acts + 8 * (root + block_params), adam_temps)
        return state + max(acts, adam_temps)

    def __call__(self, config, gpu, n_gpus, global_batch):
        limit = (1 - self.headroom) * planning.gpu_memory(gpu)
        chosen, fastest = None, math.inf
        for p in planning.candidates(config, n_gpus, global_batch):
            if max(self.peak(config, p, global_batch, s) for s in {0, p.pp - 1}) > limit:
                continue
            seconds = planning.step_time(config, gpu, p, global_batch)["total"]
            if seconds < fastest:
                chosen, fastest = p, seconds
        return chosen  # a d2lgpu.plan.Plan, or None


plan = Planner()
