# expect: fail keeps a deep copy of its optimizer's state_dict from one step to the next (a snapshot to roll back a bad step): the moments this rank holds are twice its share, held outside the optimizer where a count of the optimizer's state does not look
# hint: copy|snapshot|deepcopy|state_dict|twice|double|held|kept
import copy

import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, me = dist.get_world_size(), dist.get_rank()
        loads = [0] * world
        self.owners = []
        for p in self.params:
            r = loads.index(min(loads))
            self.owners.append(r)
            loads[r] += p.nbytes
        mine = [p for p, r in zip(self.params, self.owners) if r == me]
        self.optim = optimizer_cls(mine, **kwargs) if mine else None
        self.last_good = None  # the state before the latest step, to undo it if the loss explodes

    @torch.no_grad()
    def step(self):
        if self.optim is not None:
            self.last_good = copy.deepcopy(self.optim.state_dict())
            self.optim.step()
        for p, r in zip(self.params, self.owners):
            dist.broadcast(p.data, src=r)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
