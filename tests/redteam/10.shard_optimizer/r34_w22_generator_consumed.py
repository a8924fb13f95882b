# expect: fail stores params as given (a generator from model.parameters() is consumed by the owner loop), so step() and zero_grad() iterate over nothing
# hint: generator|list|iterat|consum|params
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = params
        world, rank = dist.get_world_size(), dist.get_rank()
        load = [0] * world
        self.owner = []
        seen = []
        for p in self.params:
            seen.append(p)
            r = min(range(world), key=lambda k: load[k])
            self.owner.append(r)
            load[r] += p.numel() * p.element_size()
        mine = [p for p, r in zip(seen, self.owner) if r == rank]
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
