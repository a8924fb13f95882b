# expect: fail builds the optimizer at the first step over the owned parameters that have a gradient, so a bias without one at step 0 is never stepped
# hint: bias|no grad|without (a )?grad|grad(ient)? (is )?None|step 1|never (stepped|updated)
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        loads = [0] * world
        self.owners = []
        for p in self.params:
            r = loads.index(min(loads))
            self.owners.append(r)
            loads[r] += p.numel() * p.element_size()
        self.mine = [p for p, r in zip(self.params, self.owners) if r == rank]
        self.make = lambda ps: optimizer_cls(ps, **kwargs)
        self.optim = None  # built at the first step, once we know what trains

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
