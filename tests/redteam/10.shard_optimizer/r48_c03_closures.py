# expect: pass builds step and zero_grad as closures in __init__ (the local optimizer lives in the closure, not in an attribute); handles a rank that owns nothing
# hint:
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        totals = {r: 0 for r in range(world)}
        owners = []
        for p in params:
            r = min(totals, key=lambda k: (totals[k], k))
            owners.append(r)
            totals[r] += p.element_size() * p.numel()
        mine = [p for p, r in zip(params, owners) if r == rank]
        local = optimizer_cls(mine, **kwargs) if mine else None

        def step():
            with torch.no_grad():
                if local is not None:
                    local.step()
                for p, r in zip(params, owners):
                    dist.broadcast(p.detach(), src=r)

        def zero_grad():
            for p in params:
                p.grad = None

        self.step = step
        self.zero_grad = zero_grad

    def step(self):  # replaced per instance in __init__
        raise NotImplementedError

    def zero_grad(self):
        raise NotImplementedError


answer = ShardedOptimizer
