# expect: fail shuffles the parameters before assigning owners with random.seed(0) + random.shuffle: the same order on every rank, but it reseeds Python's global random generator, a process-wide state it does not put back
# hint: random|seed|rng|generator|process.wide|global state
import random

import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        order = list(range(len(self.params)))
        random.seed(0)  # the same shuffle on every rank
        random.shuffle(order)  # so that big layers are not all owned by the same rank
        loads = [0] * world
        self.owners = [0] * len(self.params)
        for i in order:
            p = self.params[i]
            r = min(range(world), key=loads.__getitem__)
            self.owners[i] = r
            loads[r] += p.numel() * p.element_size()
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
