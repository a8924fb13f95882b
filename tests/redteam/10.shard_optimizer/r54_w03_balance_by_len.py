# expect: fail greedy balance counts len(p) (the first dimension), not bytes, so weights and biases balance by count
# hint: byte|balanc|uneven|share|half
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        size = [0] * world
        self.owner = []
        for p in self.params:
            r = min(range(world), key=lambda k: (size[k], k))
            self.owner.append(r)
            size[r] += len(p)  # the size of the parameter
        mine = [p for p, r in zip(self.params, self.owner) if r == rank]
        self.optim = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.optim is not None:
            self.optim.step()
        for p, r in zip(self.params, self.owner):
            dist.broadcast(p.data, src=r)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
