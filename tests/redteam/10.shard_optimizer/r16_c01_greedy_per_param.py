# expect: pass greedy owner by fewest bytes, one broadcast per parameter, grads set to None
# hint: 
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        owned_bytes = [0] * world
        self.owners = []
        for p in self.params:
            owner = owned_bytes.index(min(owned_bytes))
            self.owners.append(owner)
            owned_bytes[owner] += p.numel() * p.element_size()
        mine = [p for p, owner in zip(self.params, self.owners) if owner == rank]
        self.optim = optimizer_cls(mine, **kwargs)

    @torch.no_grad()
    def step(self):
        self.optim.step()
        for p, owner in zip(self.params, self.owners):
            dist.broadcast(p.data, src=owner)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
