# expect: pass greedy by bytes with heapq, a broadcast per parameter
# hint: 
import heapq

import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        heap = [(0, r) for r in range(world)]  # (bytes so far, rank): the lightest on top
        self.owner = []
        for p in self.params:
            load, r = heapq.heappop(heap)
            self.owner.append(r)
            heapq.heappush(heap, (load + p.numel() * p.element_size(), r))
        mine = [p for p, o in zip(self.params, self.owner) if o == rank]
        self.local = optimizer_cls(mine, **kwargs)

    @torch.no_grad()
    def step(self):
        self.local.step()
        for p, src in zip(self.params, self.owner):
            dist.broadcast(p.data, src=src)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
