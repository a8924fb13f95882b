# expect: pass greedy owners via a heap keyed on bytes, one broadcast per parameter, grads set to None
# hint:
import heapq

import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        heap = [(0, r) for r in range(world)]  # (bytes so far, rank): the lightest rank pops first
        self.owners = []
        for p in self.params:
            load, r = heapq.heappop(heap)
            self.owners.append(r)
            heapq.heappush(heap, (load + p.numel() * p.element_size(), r))
        mine = [p for p, r in zip(self.params, self.owners) if r == rank]
        self.optim = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.optim is not None:
            self.optim.step()
        for p, r in zip(self.params, self.owners):
            dist.broadcast(p.data, src=r)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
