# expect: fail keeps the params iterable as given; a generator (model.parameters()) is spent by __init__, so step broadcasts and zero_grad clears nothing
# hint: generator|iterat|exhaust|consum|list\(|broadcast|not updated|zero_grad|clear
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = params
        self.rank = dist.get_rank()
        world = dist.get_world_size()
        loads = [0] * world
        self.owner = {}
        mine = []
        for p in self.params:
            r = loads.index(min(loads))
            self.owner[p] = r
            loads[r] += p.numel() * p.element_size()
            if r == self.rank:
                mine.append(p)
        self.optim = optimizer_cls(mine, **kwargs)

    @torch.no_grad()
    def step(self):
        self.optim.step()
        for p in self.params:
            dist.broadcast(p.data, src=self.owner[p])

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
