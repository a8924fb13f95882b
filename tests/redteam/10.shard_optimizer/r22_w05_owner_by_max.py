# expect: fail the owner is picked with max() instead of min(): rank 0 wins the first tie and then always has the most bytes, so it owns every parameter and the others hold no optimizer state (not 1/n each)
# hint: fewest|min|balanc|byte|rank 0|1/n|share|every
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        loads = [0] * world
        self.owners = []
        for p in self.params:
            r = max(range(world), key=lambda r: loads[r])
            self.owners.append(r)
            loads[r] += p.nbytes
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
