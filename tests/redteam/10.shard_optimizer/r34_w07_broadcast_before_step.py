# expect: fail broadcasts the parameters BEFORE stepping the local optimizer: the others receive last step's values
# hint: before|after|order|step|broadcast
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        load = [0] * world
        self.owner = []
        for p in self.params:
            r = min(range(world), key=lambda k: load[k])
            self.owner.append(r)
            load[r] += p.numel() * p.element_size()
        mine = [p for p, r in zip(self.params, self.owner) if r == rank]
        self.optim = optimizer_cls(mine, **kwargs)

    @torch.no_grad()
    def step(self):
        for p, r in zip(self.params, self.owner):
            dist.broadcast(p.data, src=r)
        self.optim.step()

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
