# expect: fail keeps a deep copy of the local optimizer's state_dict after every step (for a rollback), so the own moments are stored twice
# hint: state_dict|snapshot|copy|twice|second|duplicate|moments|kept
import copy

import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.rank = dist.get_rank()
        world = dist.get_world_size()
        loads = [0] * world
        self.owners = []
        for p in self.params:
            r = min(range(world), key=lambda i: loads[i])
            self.owners.append(r)
            loads[r] += p.numel() * p.element_size()
        mine = [p for p, o in zip(self.params, self.owners) if o == self.rank]
        self.optim = optimizer_cls(mine, **kwargs)
        self._last_good = None

    @torch.no_grad()
    def step(self):
        self.optim.step()
        self._last_good = copy.deepcopy(self.optim.state_dict())  # to roll back a bad step
        for p, o in zip(self.params, self.owners):
            dist.broadcast(p.data, src=o)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
