# expect: pass largest-first greedy (sorted by bytes, ties by index), owners computed once as a dict keyed by parameter index, grads zeroed in place
# hint: 
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        size = [p.numel() * p.element_size() for p in self.params]
        loads = {r: 0 for r in range(world)}
        self.owner_of = {}  # parameter index -> owning rank, the same on every rank
        for i in sorted(range(len(self.params)), key=lambda i: (-size[i], i)):
            r = min(loads, key=lambda r: (loads[r], r))
            self.owner_of[i] = r
            loads[r] += size[i]
        mine = [p for i, p in enumerate(self.params) if self.owner_of[i] == rank]
        self.optim = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.optim is not None:
            self.optim.step()
        for i, p in enumerate(self.params):  # model order on every rank
            dist.broadcast(p.data, src=self.owner_of[i])

    @torch.no_grad()
    def zero_grad(self):
        for p in self.params:
            if p.grad is not None:
                p.grad.zero_()  # as zero_grad(set_to_none=False) does


answer = ShardedOptimizer
