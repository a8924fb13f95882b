# expect: fail shares the updated parameters with an all-reduce (non-owners zero their copy, the sum is the owner's value) instead of a broadcast from the owner: the same values for twice a broadcast's traffic
# hint: all.?reduce|broadcast|traffic|bytes|twice
import torch
import torch.distributed as dist


class ShardedOptimizer:
    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        world, self.rank = dist.get_world_size(), dist.get_rank()
        loads = [0] * world
        self.owners = []
        for p in self.params:
            r = min(range(world), key=loads.__getitem__)
            self.owners.append(r)
            loads[r] += p.numel() * p.element_size()
        mine = [p for p, r in zip(self.params, self.owners) if r == self.rank]
        self.optim = optimizer_cls(mine, **kwargs) if mine else None

    @torch.no_grad()
    def step(self):
        if self.optim is not None:
            self.optim.step()
        # one collective for everything: each rank contributes only the parameters it owns
        flat = torch.cat([
            p.reshape(-1) if r == self.rank else torch.zeros_like(p).reshape(-1)
            for p, r in zip(self.params, self.owners)
        ])
        dist.all_reduce(flat)
        for p, part in zip(self.params, flat.split([p.numel() for p in self.params])):
            p.copy_(part.view_as(p))

    def zero_grad(self):
        for p in self.params:
            p.grad = None


answer = ShardedOptimizer
