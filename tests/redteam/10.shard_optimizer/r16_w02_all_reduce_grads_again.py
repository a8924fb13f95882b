# expect: fail step() all-reduces and averages the gradients again before stepping: a redundant collective per parameter
# hint: all.?reduce|again|twice|already averaged|averaged|redundant|extra collective
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
        world = dist.get_world_size()
        for p in self.params:  # the same gradients on every rank before the update
            if p.grad is not None:
                dist.all_reduce(p.grad)
                p.grad /= world
        self.optim.step()
        for p, r in zip(self.params, self.owners):
            dist.broadcast(p.data, src=r)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
