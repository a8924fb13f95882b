# expect: fail seeds torch.default_generator (the global generator) in __init__ to break owner ties consistently on all ranks, overriding the caller's seed
# hint: seed|random|rng|generator
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        torch.default_generator.manual_seed(0)  # the same tie-breaks on every rank
        loads = [0] * world
        self.owner = [None] * len(self.params)
        for i in range(len(self.params)):
            p = self.params[i]
            least = min(loads)
            ties = [j for j in range(world) if loads[j] == least]
            r = ties[int(torch.randint(len(ties), ()))]  # break ties at random
            self.owner[i] = r
            loads[r] += p.numel() * p.element_size()

        mine = [p for p, o in zip(self.params, self.owner) if o == rank]
        self.optim = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):

        if self.optim is not None:
            self.optim.step()
        for p, o in zip(self.params, self.owner):
            dist.broadcast(p.data, src=o)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
