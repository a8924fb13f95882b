# expect: fail builds the local optimizer lazily at the first step(), over the own parameters that have a gradient then: a parameter that is unused in the first step (a layer forward skips) never gets into the optimizer and is never updated later.
# hint: (lazy|first step|grad is None|without (a )?grad|unused|never (updated|stepped)|later|__init__)
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.rank, self.world = dist.get_rank(), dist.get_world_size()
        self.optimizer_cls, self.kwargs = optimizer_cls, kwargs
        loads = [0] * self.world
        self.owners = []
        for p in self.params:
            r = min(range(self.world), key=loads.__getitem__)
            self.owners.append(r)
            loads[r] += p.numel() * p.element_size()
        self.mine = [p for p, r in zip(self.params, self.owners) if r == self.rank]
        self.optim = None  # built at the first step: no state for parameters that never train

    @torch.no_grad()
    def step(self):
        if self.optim is None:
            live = [p for p in self.mine if p.grad is not None]
            if live:
                self.optim = self.optimizer_cls(live, **self.kwargs)
        if self.optim is not None:
            self.optim.step()
        for p, r in zip(self.params, self.owners):
            dist.broadcast(p.data, src=r)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
