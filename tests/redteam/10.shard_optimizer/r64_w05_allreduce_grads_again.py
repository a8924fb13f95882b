# expect: fail step() all-reduces and averages the gradients again, though they arrive averaged: an extra all-reduce per step, same values
# hint: all.?reduce|again|twice|already averaged|arrive averaged|extra (collective|communication)|gradients? .*averag
# Wrong: "to be safe" it averages its own parameters' gradients over the ranks before stepping;
# the average of equal averages is the same (to rounding), so only the extra traffic shows.
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        load = [0] * world
        self.owners = []
        for p in self.params:
            r = min(range(world), key=lambda k: load[k])
            self.owners.append(r)
            load[r] += p.numel() * p.element_size()
        mine = [p for p, o in zip(self.params, self.owners) if o == rank]
        self.optimizer = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        world = dist.get_world_size()
        for p in self.params:  # make sure every rank steps on the averaged gradient
            if p.grad is not None:
                dist.all_reduce(p.grad)
                p.grad.div_(world)
        if self.optimizer is not None:
            self.optimizer.step()
        for p, o in zip(self.params, self.owners):
            dist.broadcast(p.data, src=o)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
