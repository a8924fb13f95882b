# expect: pass largest-first owners, one flat torch.cat buffer per (owner, dtype), grads zeroed in place
# hint:
from collections import defaultdict

import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.world, self.rank = dist.get_world_size(), dist.get_rank()
        nbytes = [p.numel() * p.element_size() for p in self.params]
        # largest first (a stable sort: the same order on every rank), each to the lightest rank
        order = sorted(range(len(self.params)), key=lambda i: -nbytes[i])
        loads = [0] * self.world
        owner = [None] * len(self.params)
        for i in order:
            r = min(range(self.world), key=lambda k: (loads[k], k))
            owner[i] = r
            loads[r] += nbytes[i]
        # the buckets, in the parameters' own order, one per (owner, dtype)
        buckets = defaultdict(list)
        for p, r in zip(self.params, owner):
            buckets[r, p.dtype].append(p)
        self.buckets = sorted(buckets.items(), key=lambda kv: (kv[0][0], str(kv[0][1])))
        mine = [p for p, r in zip(self.params, owner) if r == self.rank]
        self.local = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.local is not None:
            self.local.step()
        for (src, dtype), share in self.buckets:
            flat = torch.cat([p.detach().reshape(-1) for p in share])  # the share's own dtype
            dist.broadcast(flat, src=src)
            if self.rank != src:
                for p, part in zip(share, flat.split([p.numel() for p in share])):
                    p.copy_(part.view_as(p))

    def zero_grad(self):
        for p in self.params:
            if p.grad is not None:
                p.grad.detach_()
                p.grad.zero_()


answer = ShardedOptimizer
