# expect: fail broadcasts launched with async_op=True and never waited on: step() returns before the parameters have arrived
# hint: async|wait|handle|never waited|race|not waited
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        owned = [0] * world
        self.owners = []
        for p in self.params:
            r = owned.index(min(owned))
            self.owners.append(r)
            owned[r] += p.numel() * p.element_size()
        self.optim = optimizer_cls([p for p, r in zip(self.params, self.owners) if r == rank], **kwargs)

    @torch.no_grad()
    def step(self):
        self.optim.step()
        for p, r in zip(self.params, self.owners):
            dist.broadcast(p.data, src=r, async_op=True)  # all in flight at once

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
