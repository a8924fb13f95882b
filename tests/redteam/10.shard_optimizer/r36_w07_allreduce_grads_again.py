# expect: fail step() all-reduces and averages the gradients again before stepping (they arrive averaged)
# hint: (all.?reduce|again|already averag|arrive averag|extra collective|gradients)
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
        world = dist.get_world_size()
        for p in self.params:  # make sure the gradients agree before the update
            if p.grad is not None:
                dist.all_reduce(p.grad)
                p.grad /= world
        if self.opt is not None:
            self.opt.step()
        for p, r in zip(self.params, self.owners):
            dist.broadcast(p.data, src=r)

    def zero_grad(self):
        for p in self.params:
            p.grad = None
