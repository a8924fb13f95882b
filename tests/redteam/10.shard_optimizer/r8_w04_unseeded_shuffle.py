# expect: fail shuffles the parameters with Python's unseeded random module before assigning owners, so each process draws its own order and the ranks disagree on owners and broadcast order
# hint: owner|order|random|shuffle|seed|agree|differ
import random

import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        rank, world = dist.get_rank(), dist.get_world_size()
        order = list(range(len(self.params)))
        random.shuffle(order)  # spread big and small layers over the ranks
        loads = [0] * world
        self.owner = [0] * len(self.params)
        for i in order:
            r = loads.index(min(loads))
            self.owner[i] = r
            loads[r] += self.params[i].numel() * self.params[i].element_size()
        self.optim = optimizer_cls([p for p, r in zip(self.params, self.owner) if r == rank], **kwargs)

    @torch.no_grad()
    def step(self):
        self.optim.step()
        for p, r in zip(self.params, self.owner):
            dist.broadcast(p.data, src=r)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
