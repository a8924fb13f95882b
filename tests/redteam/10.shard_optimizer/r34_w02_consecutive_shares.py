# expect: fail owners by consecutive shares of the count (first len/world to rank 0, ...): balances the count, not the bytes
# hint: bytes|balanc|consecutive|count|share
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        per = -(-len(self.params) // world)
        self.owner = [min(i // per, world - 1) for i in range(len(self.params))]
        mine = [p for p, r in zip(self.params, self.owner) if r == rank]
        self.optim = optimizer_cls(mine, **kwargs)

    @torch.no_grad()
    def step(self):
        self.optim.step()
        for p, r in zip(self.params, self.owner):
            dist.broadcast(p.data, src=r)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
