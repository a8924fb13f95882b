# expect: fail always builds optimizer_cls(mine, **kwargs): a rank that owns no parameter (more ranks than parameters, say 4 ranks and 3 parameters) raises "optimizer got an empty parameter list"
# hint: empty|no param|owns nothing|own none|more ranks|fewer param|valueerror
# open: every case has at least as many parameters as ranks, so every rank owns one: only more ranks than parameters, where a rank's share is empty, tells it apart
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world = dist.get_world_size()
        loads = [0] * world
        self.owner = []
        for p in self.params:
            r = loads.index(min(loads))
            self.owner.append(r)
            loads[r] += p.numel() * p.element_size()
        mine = [p for p, r in zip(self.params, self.owner) if r == dist.get_rank()]
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
