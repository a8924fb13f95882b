# expect: fail step() all-reduces and averages the gradients again before stepping, though they arrive averaged (values right, an extra all-reduce per parameter)
# hint: all.?reduce|already averaged|averag\w* (again|twice)|again|twice|extra collective|re-?averag
# name: ShardedOptimizer
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.rank = dist.get_rank()
        self.world = dist.get_world_size()
        load = [0] * self.world
        self.owners = []
        for p in self.params:
            owner = min(range(self.world), key=lambda r: load[r])
            load[owner] += p.numel() * p.element_size()
            self.owners.append(owner)
        mine = [p for p, o in zip(self.params, self.owners) if o == self.rank]
        self.optim = optimizer_cls(mine, **kwargs)

    @torch.no_grad()
    def step(self):
        for p in self.params:  # make sure every rank steps with the same, averaged gradient
            if p.grad is not None:
                dist.all_reduce(p.grad)
                p.grad /= self.world
        self.optim.step()
        for p, owner in zip(self.params, self.owners):
            dist.broadcast(p.data, src=owner)

    def zero_grad(self):
        for p in self.params:
            p.grad = None
