# expect: pass owners kept in a dict keyed by parameter, broadcasts launched async then all waited, zero_grad via a helper
# hint:
import torch
import torch.distributed as dist


def _assign_owners(params, world):
    loads = [0] * world
    owners = {}
    for p in params:
        r = loads.index(min(loads))
        owners[p] = r
        loads[r] += p.numel() * p.element_size()
    return owners


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self._params = [p for p in params]
        self._owners = _assign_owners(self._params, dist.get_world_size())
        me = dist.get_rank()
        self.optimizer = optimizer_cls([p for p in self._params if self._owners[p] == me], **kwargs)

    @torch.no_grad()
    def step(self):
        self.optimizer.step()
        handles = [dist.broadcast(p, src=self._owners[p], async_op=True) for p in self._params]
        for h in handles:
            h.wait()

    def zero_grad(self):
        for p in self._params:
            p.grad = None


answer = ShardedOptimizer
