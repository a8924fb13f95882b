# expect: pass
# hint:
# Right, another form: a torch.optim.Optimizer subclass whose param_groups list every parameter
# (so the inherited zero_grad clears them all) but which keeps no state; Adam's moments live
# only in the inner optimizer over this rank's own parameters. Broadcasts p itself under no_grad.
import torch
import torch.distributed as dist


class ShardedOptimizer(torch.optim.Optimizer):
    def __init__(self, params, optimizer_cls, **kwargs):
        params = list(params)
        super().__init__(params, defaults={})
        world, rank = dist.get_world_size(), dist.get_rank()
        load = dict.fromkeys(range(world), 0)
        self._owner_of = []
        for p in params:
            r = min(load, key=load.get)
            self._owner_of.append((p, r))
            load[r] += p.nelement() * p.element_size()
        mine = [p for p, r in self._owner_of if r == rank]
        self._inner = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self, closure=None):
        if self._inner is not None:
            self._inner.step()
        for p, r in self._owner_of:
            dist.broadcast(p, src=r)


answer = ShardedOptimizer
