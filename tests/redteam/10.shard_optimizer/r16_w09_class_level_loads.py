# expect: fail bytes owned per rank kept in a class attribute shared by every instance, so a second optimizer starts from the first one's loads
# hint: class attribute|class.?level|shared|global|between instances|second (optimizer|instance)|stale|loads|reset
from collections import defaultdict

import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    owned_bytes = defaultdict(int)  # rank -> bytes it owns

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        self.owners = []
        for p in self.params:
            r = min(range(world), key=lambda r: self.owned_bytes[r])
            self.owners.append(r)
            self.owned_bytes[r] += p.numel() * p.element_size()
        self.optim = optimizer_cls([p for p, r in zip(self.params, self.owners) if r == rank], **kwargs)

    @torch.no_grad()
    def step(self):
        self.optim.step()
        for p, r in zip(self.params, self.owners):
            dist.broadcast(p.data, src=r)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
