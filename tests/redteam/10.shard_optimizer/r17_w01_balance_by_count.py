# expect: fail balances the number of parameters, not their bytes
# hint: byte|size|count|balanc
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world = dist.get_world_size()
        rank = dist.get_rank()
        counts = [0] * world  # how many parameters each rank owns so far
        self.owners = []
        for p in self.params:
            r = counts.index(min(counts))
            self.owners.append(r)
            counts[r] += 1
        mine = [p for p, o in zip(self.params, self.owners) if o == rank]
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
