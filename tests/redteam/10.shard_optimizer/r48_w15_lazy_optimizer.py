# expect: fail builds the local optimizer lazily at the first step(), over the owned parameters that have a gradient then: a parameter without a gradient in the first step is never optimized afterwards
# hint: __init__|first step|lazy|never (updated|optimi)|no grad|missing param
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        loads = [0] * world
        self.owners = []
        for p in self.params:
            r = min(range(world), key=loads.__getitem__)
            self.owners.append(r)
            loads[r] += p.numel() * p.element_size()
        self.mine = [p for p, r in zip(self.params, self.owners) if r == rank]
        self.make = lambda ps: optimizer_cls(ps, **kwargs)
        self.optim = None  # built when the first gradients exist: no state for frozen weights

    @torch.no_grad()
    def step(self):
        if self.optim is None:
            trained = [p for p in self.mine if p.grad is not None]
            if trained:
                self.optim = self.make(trained)
        if self.optim is not None:
            self.optim.step()
        for p, r in zip(self.params, self.owners):
            dist.broadcast(p.data, src=r)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
