# expect: fail broadcasts the parameters before stepping the local optimizer, so the other ranks get last step's values (one step behind)
# hint: before|after|order|stale|behind|broadcast|updated|differ|DDP
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.rank = dist.get_rank()
        world = dist.get_world_size()
        loads = [0] * world
        self.owners = []
        for p in self.params:
            r = min(range(world), key=lambda i: loads[i])
            self.owners.append(r)
            loads[r] += p.numel() * p.element_size()
        mine = [p for p, o in zip(self.params, self.owners) if o == self.rank]
        self.optim = optimizer_cls(mine, **kwargs)

    @torch.no_grad()
    def step(self):
        for p, o in zip(self.params, self.owners):
            dist.broadcast(p.data, src=o)
        self.optim.step()

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
