# expect: pass functools.partial for the optimizer, async broadcasts all launched then all waited
# hint: 
import functools

import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        build = functools.partial(optimizer_cls, **kwargs)
        self.params = list(params)
        load = [0] * dist.get_world_size()
        self.owner_of = []
        for p in self.params:
            r = min(range(len(load)), key=load.__getitem__)
            load[r] += p.numel() * p.element_size()
            self.owner_of.append(r)
        me = dist.get_rank()
        self.optimizer = build([p for p, r in zip(self.params, self.owner_of) if r == me])

    @torch.no_grad()
    def step(self):
        self.optimizer.step()
        works = [
            dist.broadcast(p.data, src=r, async_op=True) for p, r in zip(self.params, self.owner_of)
        ]
        for work in works:
            work.wait()

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
