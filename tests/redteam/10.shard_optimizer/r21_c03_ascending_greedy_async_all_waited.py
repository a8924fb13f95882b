# expect: pass owners by greedy over the parameters smallest first (still within the largest parameter), owner map keyed by position, per-parameter async broadcasts all waited
# hint: 
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self._all = list(params)
        n = dist.get_world_size()
        order = sorted(range(len(self._all)), key=lambda i: (self._all[i].nbytes, i))
        bytes_of = dict.fromkeys(range(n), 0)
        self._src = {}
        for i in order:
            r = min(bytes_of, key=lambda k: (bytes_of[k], k))
            self._src[i] = r
            bytes_of[r] += self._all[i].nbytes
        me = dist.get_rank()
        own = [p for i, p in enumerate(self._all) if self._src[i] == me]
        self._inner = optimizer_cls(own, **kwargs) if own else None

    @torch.no_grad()
    def step(self):
        if self._inner is not None:
            self._inner.step()
        works = [dist.broadcast(p.data, src=self._src[i], async_op=True) for i, p in enumerate(self._all)]
        for w in works:
            w.wait()

    def zero_grad(self):
        for p in self._all:
            p.grad = None


answer = ShardedOptimizer
