# expect: fail owners given round-robin by index (params[rank::world]): balances the count of parameters, not their bytes
# hint: bytes|balanc|size|numel|owner|uneven|round.?robin|index
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.rank = dist.get_rank()
        world = dist.get_world_size()
        self.owners = [i % world for i in range(len(self.params))]
        mine = self.params[self.rank::world]
        self.optim = optimizer_cls(mine, **kwargs)

    @torch.no_grad()
    def step(self):
        self.optim.step()
        for p, o in zip(self.params, self.owners):
            dist.broadcast(p.data, src=o)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
