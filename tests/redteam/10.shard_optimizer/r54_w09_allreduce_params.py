# expect: fail sends the updated parameters with an all-reduce (non-owners zero their copy, the sum is the owner's) instead of a broadcast from the owner
# hint: broadcast|all_reduce|all-reduce|allreduce
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, self.rank = dist.get_world_size(), dist.get_rank()
        loads = [0] * world
        self.owners = []
        for p in self.params:
            r = loads.index(min(loads))
            self.owners.append(r)
            loads[r] += p.numel() * p.element_size()
        mine = [p for p, r in zip(self.params, self.owners) if r == self.rank]
        self.optim = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.optim is not None:
            self.optim.step()
        # every rank but the owner contributes zeros, so the sum is exactly the owner's values
        flat = torch.cat(
            [p.detach().reshape(-1) if r == self.rank else torch.zeros_like(p).reshape(-1)
             for p, r in zip(self.params, self.owners)]
        ) if len({p.dtype for p in self.params}) == 1 else None
        if flat is not None:
            dist.all_reduce(flat)
            for p, part in zip(self.params, flat.split([p.numel() for p in self.params])):
                p.copy_(part.view_as(p))
        else:
            for p, r in zip(self.params, self.owners):
                t = p.detach().clone() if r == self.rank else torch.zeros_like(p)
                dist.all_reduce(t)
                p.copy_(t)

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
