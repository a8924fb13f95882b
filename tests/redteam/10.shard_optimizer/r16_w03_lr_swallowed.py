# expect: fail lr captured as a named argument of __init__ and never passed on: the local optimizer runs with its default learning rate
# hint: lr|learning rate|kwargs|pass on|passed on|all of them|default
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, lr=1e-3, **kwargs):
        self.params = list(params)
        self.lr = lr
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
            dist.broadcast(p.data, src=r)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
