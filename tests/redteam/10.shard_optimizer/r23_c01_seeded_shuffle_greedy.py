# expect: pass greedy owners over a seeded shuffle of the parameters (same order on every rank, any order keeps the gap under the largest parameter), bytes from p.nbytes, broadcasts of the Parameter itself
import random

import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        order = list(range(len(self.params)))
        random.Random(1234).shuffle(order)  # a private generator: identical on all ranks
        loads = [0] * dist.get_world_size()
        self.src = [None] * len(self.params)
        for i in order:
            r = min(range(len(loads)), key=loads.__getitem__)
            self.src[i] = r
            loads[r] += self.params[i].nbytes
        me = dist.get_rank()
        own = [p for p, r in zip(self.params, self.src) if r == me]
        self.inner = optimizer_cls(own, **kwargs) if own else None

    @torch.no_grad()
    def step(self):
        if self.inner:
            self.inner.step()
        for p, r in zip(self.params, self.src):
            dist.broadcast(p, src=r)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
