# expect: fail zero_grad() clears only this rank's parameters (the local optimizer's), not every parameter
# hint: (zero_grad|every param|all param|not only|own|clear|grad)
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
        if self.opt is not None:
            self.opt.step()
        for p, r in zip(self.params, self.owners):
            dist.broadcast(p.data, src=r)

    def zero_grad(self):
        if self.opt is not None:
            self.opt.zero_grad()
