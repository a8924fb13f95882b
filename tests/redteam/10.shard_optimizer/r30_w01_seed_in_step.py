# expect: fail calls torch.manual_seed(0) in every step(), resetting the caller's global random generator each step
# hint: seed|random|rng|generator
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()

        loads = [0] * world
        self.owner = [None] * len(self.params)
        for i in range(len(self.params)):
            p = self.params[i]
            least = min(loads)
            r = loads.index(least)
            self.owner[i] = r
            loads[r] += p.numel() * p.element_size()

        mine = [p for p, o in zip(self.params, self.owner) if o == rank]
        self.optim = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        torch.manual_seed(0)  # every rank steps from the same random state
        if self.optim is not None:
            self.optim.step()
        for p, o in zip(self.params, self.owner):
            dist.broadcast(p.data, src=o)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
