# expect: fail zero_grad clears only this rank's own parameters (through the local optimizer)
# hint: zero_grad|every|all param|own|not only
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
        self.optim.step()
        for p, r in zip(self.params, self.owner):
            dist.broadcast(p.data, src=r)

    def zero_grad(self):
        self.optim.zero_grad()


answer = ShardedOptimizer
