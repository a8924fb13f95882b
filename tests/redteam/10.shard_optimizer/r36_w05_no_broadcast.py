# expect: fail steps only its own parameters and never broadcasts them: the other ranks keep stale parameters
# hint: (broadcast|send|other ranks|same.*param|stale|out of sync|diverg|every rank)
# name: ShardedOptimizer
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
        # DDP averaged the grads already, so each rank only needs its own update

    def zero_grad(self):
        for p in self.params:
            p.grad = None
