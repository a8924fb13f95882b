# expect: pass greedy on p.nbytes with ties broken towards the highest rank; async per-parameter broadcasts, all waited before step() returns
# hint: 
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
            # fewest bytes first; on a tie, the highest rank (any fixed rule works on every rank)
            r = min(range(world), key=lambda r: (loads[r], -r))
            self.owners.append(r)
            loads[r] += p.nbytes
        mine = [p for p, r in zip(self.params, self.owners) if r == rank]
        self.optim = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.optim is not None:
            self.optim.step()
        works = [dist.broadcast(p.data, src=r, async_op=True) for p, r in zip(self.params, self.owners)]
        for work in works:
            work.wait()

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
