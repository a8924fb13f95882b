# expect: fail keeps a deep copy of its optimizer state_dict() after every step (a second copy of the moments)
# hint: (state_dict|snapshot|copy|twice|second|duplicate|memory|moments|keep)
# name: ShardedOptimizer
import copy

import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, rank = dist.get_world_size(), dist.get_rank()
        loads = [0] * world
        self.owners = []
        for p in self.params:
            r = loads.index(min(loads))
            loads[r] += p.numel() * p.element_size()
            self.owners.append(r)
        mine = [p for p, r in zip(self.params, self.owners) if r == rank]
        self.opt = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.opt is not None:
            self.opt.step()
            self._last_state = copy.deepcopy(self.opt.state_dict())  # for checkpointing/rollback
        for p, r in zip(self.params, self.owners):
            dist.broadcast(p.data, src=r)

    def zero_grad(self):
        for p in self.params:
            p.grad = None
