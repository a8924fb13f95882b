# expect: fail the per-rank byte tally lives on the class, so a second instance keeps counting from the first one's loads
# hint: instance|carr(y|ies|ied) over|previous|earlier|first .*ShardedOptimizer|from zero|class
from collections import defaultdict

import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    # bytes owned so far by each rank (the greedy balance reads and updates it)
    _loads = defaultdict(int)

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        self.owners = []
        for p in self.params:
            r = min(range(world), key=lambda k: (self._loads[k], k))
            self.owners.append(r)
            self._loads[r] += p.numel() * p.element_size()
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
