# expect: pass
# hint:
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: greedy by bytes; per-parameter async broadcasts, all waited on before step returns."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = [p for p in params]
        world = dist.get_world_size()
        owned = [0] * world
        self.src = {}
        for p in self.params:
            r = owned.index(min(owned))
            self.src[id(p)] = r
            owned[r] += p.nelement() * p.element_size()
        me = dist.get_rank()
        self.inner = optimizer_cls([p for p in self.params if self.src[id(p)] == me], **kwargs) \
            if any(self.src[id(p)] == me for p in self.params) else None

    @torch.no_grad()
    def step(self):
        if self.inner is not None:
            self.inner.step()
        handles = [dist.broadcast(p.data, src=self.src[id(p)], async_op=True) for p in self.params]
        for h in handles:
            h.wait()

    def zero_grad(self):
        for p in self.params:
            if p.grad is not None:
                p.grad = None


answer = ShardedOptimizer
