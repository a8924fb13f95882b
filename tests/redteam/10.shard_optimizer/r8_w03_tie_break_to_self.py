# expect: fail breaks ties in the greedy split in favour of the local rank, so with equal loads every rank claims the parameter itself and the ranks disagree on the owners
# hint: owner|agree|disagree|tie|rank|same on every
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        rank, world = dist.get_rank(), dist.get_world_size()
        loads = [0] * world
        self.owner = []
        for p in self.params:
            # fewest bytes first; on a tie, keep it here (saves a broadcast's worth of waiting)
            r = min(range(world), key=lambda k: (loads[k], k != rank, k))
            self.owner.append(r)
            loads[r] += p.numel() * p.element_size()
        self.optim = optimizer_cls([p for p, r in zip(self.params, self.owner) if r == rank], **kwargs)

    @torch.no_grad()
    def step(self):
        self.optim.step()
        for p, r in zip(self.params, self.owner):
            dist.broadcast(p.data, src=r)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
