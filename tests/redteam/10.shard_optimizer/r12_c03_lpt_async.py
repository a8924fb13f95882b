# expect: pass
# hint:
# name: ShardedOptimizer
import heapq

import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: largest parameters first onto the lightest rank (a heap), asynchronous broadcasts."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        rank, world = dist.get_rank(), dist.get_world_size()
        nbytes = [p.numel() * p.element_size() for p in self.params]
        order = sorted(range(len(self.params)), key=lambda i: (-nbytes[i], i))  # stable, rank-free
        heap = [(0, r) for r in range(world)]
        self.owner_of = {}
        for i in order:
            load, r = heapq.heappop(heap)
            self.owner_of[i] = r
            heapq.heappush(heap, (load + nbytes[i], r))
        mine = [p for i, p in enumerate(self.params) if self.owner_of[i] == rank]
        self.local = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.local is not None:
            self.local.step()
        works = [
            dist.broadcast(p.data, src=self.owner_of[i], async_op=True)
            for i, p in enumerate(self.params)  # index order: the same on every rank
        ]
        for w in works:
            w.wait()

    def zero_grad(self):
        for p in self.params:
            p.grad = None
