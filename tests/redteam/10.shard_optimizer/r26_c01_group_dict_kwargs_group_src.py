# expect: pass kwargs handed to the optimizer inside its one param-group dict (group options, same effect as defaults), loads in a collections.Counter, broadcasts through an alias (from torch.distributed import broadcast) with the group_src= keyword instead of src=
# hint: 
from collections import Counter

import torch
from torch.distributed import broadcast as send_from, get_rank, get_world_size


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        ranks = range(get_world_size())
        loads = Counter({r: 0 for r in ranks})
        self.owners = []
        for p in self.params:
            r = min(ranks, key=lambda k: (loads[k], k))
            self.owners.append(r)
            loads[r] += p.numel() * p.element_size()
        mine = [p for p, r in zip(self.params, self.owners) if r == get_rank()]
        self.optim = optimizer_cls([{"params": mine, **kwargs}]) if mine else None

    @torch.no_grad()
    def step(self):
        if self.optim is not None:
            self.optim.step()
        for p, r in zip(self.params, self.owners):
            send_from(p.data, group_src=r)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
