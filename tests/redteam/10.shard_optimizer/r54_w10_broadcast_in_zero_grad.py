# expect: fail step() only steps the local shard; the broadcast waits for the next zero_grad(), so after step() the other ranks hold stale parameters
# hint: step\(\)|after (each |the )?step|stale|not (yet )?(updated|sent|broadcast)
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
        mine = [p for p, r in zip(self.params, self.owners) if r == rank]
        self.optim = optimizer_cls(mine, **kwargs) if mine else None
        self._dirty = False

    @torch.no_grad()
    def step(self):
        if self.optim is not None:
            self.optim.step()
        self._dirty = True  # sent before the next forward, in zero_grad()

    @torch.no_grad()
    def _sync(self):
        if self._dirty:
            for p, r in zip(self.params, self.owners):
                dist.broadcast(p.data, src=r)
            self._dirty = False

    def zero_grad(self):
        self._sync()
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
