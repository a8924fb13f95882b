# expect: fail It builds the optimizer over all the parameters on every rank and only then broadcasts from the owners, so the parameters come out right but every rank keeps the whole optimizer state, no saving at all.
# hint: state|1/n|own|shard|bytes|memory
# name: ShardedOptimizer
import torch
import torch.distributed as dist


class ShardedOptimizer:
    """ZeRO-1: each rank keeps the optimizer state of its own parameters, then broadcasts them."""

    def __init__(self, params, optimizer_cls, **kwargs):
        self.params = list(params)
        self.rank = dist.get_rank()
        world = dist.get_world_size()
        load = [0] * world
        self.owners = []
        for p in self.params:
            owner = min(range(world), key=lambda r: (load[r], r))
            self.owners.append(owner)
            load[owner] += p.numel() * p.element_size()
        mine = [p for p, o in zip(self.params, self.owners) if o == self.rank]
        self.optim = optimizer_cls(self.params, **kwargs)  # the owners' broadcast wins anyway

    @torch.no_grad()
    def step(self):
        if self.optim is not None:
            self.optim.step()
        for p, owner in zip(self.params, self.owners):
            dist.broadcast(p.data, src=owner)

    def zero_grad(self):
        for p in self.params:
            p.grad = None
