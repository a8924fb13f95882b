# expect: pass owners from torch.argmin over a tensor of loads, step() under an explicit no_grad block with keyword broadcasts to group=dist.group.WORLD, zero_grad via set_to_none on a local optimizer plus None for the rest
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = [p for p in params]
        loads = torch.zeros(dist.get_world_size(), dtype=torch.int64)
        owners = []
        for p in self.params:
            r = int(torch.argmin(loads))  # first of the smallest
            owners.append(r)
            loads[r] += p.numel() * p.element_size()
        self.owners = owners
        self.rank = dist.get_rank()
        self.own = [p for p, r in zip(self.params, owners) if r == self.rank]
        self.local = optimizer_cls(params=self.own, **kwargs) if self.own else None

    def step(self):
        with torch.no_grad():
            if self.local is not None:
                self.local.step()
            for p, r in zip(self.params, self.owners):
                dist.broadcast(tensor=p.data, src=r, group=dist.group.WORLD)

    def zero_grad(self):
        if self.local is not None:
            self.local.zero_grad(set_to_none=True)
        for p, r in zip(self.params, self.owners):
            if r != self.rank:
                p.grad = None


answer = ShardedOptimizer
