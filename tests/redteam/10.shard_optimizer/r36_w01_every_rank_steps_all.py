# expect: fail every rank builds the optimizer over all parameters and steps them all (no sharding, broadcast is a no-op)
# hint: (own|shard|1/n|all (the )?param|every param|state bytes|optimizer.?state|memory|replicat|each rank)
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
        self.opt = optimizer_cls(self.params, **kwargs)  # same update everywhere, broadcast keeps them in sync

    @torch.no_grad()
    def step(self):
        if self.opt is not None:
            self.opt.step()
        for p, r in zip(self.params, self.owners):
            dist.broadcast(p.data, src=r)

    def zero_grad(self):
        for p in self.params:
            p.grad = None
