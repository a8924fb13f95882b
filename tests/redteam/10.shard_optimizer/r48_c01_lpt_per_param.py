# expect: pass owners by longest-first greedy (largest parameter first, each to the least-loaded rank, ties to the lower rank), one broadcast per parameter in model order, grads set to None
# hint:
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = [p for p in params]
        world, rank = dist.get_world_size(), dist.get_rank()
        nbytes = [p.numel() * p.element_size() for p in self.params]
        load = [0] * world
        self.owner = [None] * len(self.params)
        for i in sorted(range(len(self.params)), key=lambda i: (-nbytes[i], i)):
            r = min(range(world), key=lambda k: (load[k], k))
            self.owner[i] = r
            load[r] += nbytes[i]
        mine = [p for p, r in zip(self.params, self.owner) if r == rank]
        self.optimizer = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.optimizer is not None:
            self.optimizer.step()
        for p, r in zip(self.params, self.owner):
            dist.broadcast(p.data, src=r)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
