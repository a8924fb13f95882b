# expect: fail sorts the parameters by id() before giving out owners, and id() is a per-process address, so ranks can disagree on who owns what and on the broadcast order
# hint: order|same order|id\(|address|differ|agree
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        # a canonical order, so that the greedy split does not depend on how params came in
        self.params = sorted(params, key=id)
        self.rank, self.world = dist.get_rank(), dist.get_world_size()
        loads = [0] * self.world
        self.owner = []
        for p in self.params:
            r = loads.index(min(loads))
            self.owner.append(r)
            loads[r] += p.numel() * p.element_size()
        mine = [p for p, r in zip(self.params, self.owner) if r == self.rank]
        self.optim = optimizer_cls(mine, **kwargs)

    @torch.no_grad()
    def step(self):
        self.optim.step()
        for p, r in zip(self.params, self.owner):
            dist.broadcast(p.data, src=r)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
