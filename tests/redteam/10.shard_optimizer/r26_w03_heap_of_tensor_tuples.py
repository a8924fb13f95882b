# expect: fail orders the parameters largest-first with a heap of (-bytes, parameter) tuples: two parameters of the same size make heapq compare the tensors themselves (elementwise <, whose truth value is ambiguous), so __init__ raises as soon as two sizes tie
# hint: heap|tie|tuple|compar|ambiguous|same size|equal size|index
import heapq

import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, me = dist.get_world_size(), dist.get_rank()
        todo = [(-p.nbytes, p) for p in self.params]
        heapq.heapify(todo)  # largest parameter first
        ranks = [(0, r) for r in range(world)]  # (bytes owned, rank)
        self.owner = {}
        while todo:
            neg, p = heapq.heappop(todo)
            load, r = heapq.heappop(ranks)
            self.owner[id(p)] = r
            heapq.heappush(ranks, (load - neg, r))
        mine = [p for p in self.params if self.owner[id(p)] == me]
        self.optim = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.optim is not None:
            self.optim.step()
        for p in self.params:
            dist.broadcast(p.data, src=self.owner[id(p)])

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
