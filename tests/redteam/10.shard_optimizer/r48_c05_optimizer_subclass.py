# expect: pass a torch.optim.Optimizer subclass over all the parameters (no state of its own), an inner optimizer over the owned ones, step(closure=None) and the inherited zero_grad
# hint:
import torch
import torch.distributed as dist


class ShardedOptimizer(torch.optim.Optimizer):
    def __init__(self, params, optimizer_cls, **kwargs):
        params = list(params)
        super().__init__(params, dict(kwargs))
        world, rank = dist.get_world_size(), dist.get_rank()
        load = [0] * world
        self._owners = []
        for p in params:
            r = load.index(min(load))
            self._owners.append((p, r))
            load[r] += p.numel() * p.element_size()
        mine = [p for p, r in self._owners if r == rank]
        self._inner = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self, closure=None):
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        if self._inner is not None:
            self._inner.step()
        for p, r in self._owners:
            dist.broadcast(p.data, src=r)
        return loss


answer = ShardedOptimizer
