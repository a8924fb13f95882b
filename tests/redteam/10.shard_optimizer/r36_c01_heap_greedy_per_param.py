# expect: pass greedy owner by a heap of (bytes, rank), per-parameter dist.broadcast of p.data
# hint:
# name: ShardedOptimizer
import heapq

import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world = dist.get_world_size()
        self.rank = dist.get_rank()
        heap = [(0, r) for r in range(world)]
        self.owner = []
        for p in self.params:
            load, r = heapq.heappop(heap)
            self.owner.append(r)
            heapq.heappush(heap, (load + p.numel() * p.element_size(), r))
        mine = [p for p, r in zip(self.params, self.owner) if r == self.rank]
        self.optimizer = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.optimizer is not None:
            self.optimizer.step()
        for p, r in zip(self.params, self.owner):
            dist.broadcast(p.data, src=r)

    def zero_grad(self):
        for p in self.params:
            p.grad = None
