# expect: fail broadcasts the parameters before the local step: the other ranks get last step's values
# hint: (order|before|after|stale|step.*broadcast|broadcast.*step|one step behind|lag)
# name: ShardedOptimizer
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        loads = [0] * world
        self.owners = []
        for p in self.params:
            r = loads.index(min(loads))
            loads[r] += p.numel() * p.element_size()
            self.owners.append(r)
        mine = [p for p, r in zip(self.params, self.owners) if r == rank]
        self.opt = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        for p, r in zip(self.params, self.owners):  # start from the same parameters everywhere
            dist.broadcast(p.data, src=r)
        if self.opt is not None:
            self.opt.step()

    def zero_grad(self):
        for p in self.params:
            p.grad = None
