# expect: fail shuffles the parameters before the greedy split with torch.manual_seed + randperm, reseeding the process's global RNG outside fork_rng
# hint: random|rng|seed|generator|fork_rng
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        # a random order spreads consecutive layers over the ranks; the same seed on every
        # rank gives every rank the same order
        torch.manual_seed(1234)
        order = torch.randperm(len(self.params)).tolist()
        loads = [0] * world
        self.owners = [None] * len(self.params)
        for i in order:
            r = loads.index(min(loads))
            self.owners[i] = r
            loads[r] += self.params[i].numel() * self.params[i].element_size()
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
