# expect: pass heapq of (bytes, rank) for owners, one torch.cat flat buffer per owner and dtype, copied back with torch._foreach_copy_
import heapq
from collections import defaultdict

import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        heap = [(0, r) for r in range(dist.get_world_size())]
        self.buckets = defaultdict(list)  # (owner, dtype) -> parameters, in model order
        mine = []
        for p in self.params:
            load, r = heapq.heappop(heap)
            heapq.heappush(heap, (load + p.numel() * p.element_size(), r))
            self.buckets[r, str(p.dtype)].append(p)
            if r == dist.get_rank():
                mine.append(p)
        self.keys = sorted(self.buckets)  # the same order on every rank
        self.opt = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.opt is not None:
            self.opt.step()
        for key in self.keys:
            share = self.buckets[key]
            flat = torch.cat([p.detach().flatten() for p in share])
            dist.broadcast(flat, src=key[0])
            parts = [t.view_as(p) for t, p in zip(flat.split([p.numel() for p in share]), share)]
            torch._foreach_copy_([p.detach() for p in share], parts)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
