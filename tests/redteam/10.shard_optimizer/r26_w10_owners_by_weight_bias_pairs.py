# expect: fail gives ownership by layer, pairing the parameters two by two as (weight, bias) with zip(it, it): an odd number of parameters leaves the last one without an owner (never updated, never sent), and pairs balance only to within a pair, not a parameter (8 weights on 3 ranks: 4, 2 and 2)
# hint: pair|layer|zip|odd|owner|every parameter|unowned|balanc|weight.*bias
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, me = dist.get_world_size(), dist.get_rank()
        it = iter(self.params)
        layers = list(zip(it, it))  # (weight, bias) of each layer: a layer stays on one rank
        loads = [0] * world
        self.owned_by = [[] for _ in range(world)]
        for layer in layers:
            r = loads.index(min(loads))
            self.owned_by[r].extend(layer)
            loads[r] += sum(p.nbytes for p in layer)
        mine = self.owned_by[me]
        self.optim = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.optim is not None:
            self.optim.step()
        for r, share in enumerate(self.owned_by):
            for p in share:
                dist.broadcast(p.data, src=r)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
